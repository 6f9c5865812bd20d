/** Diagnostics in the compiler's form, one `path:line:col: severity: message [source code]` line each, as diag and --verify print them. */
import type { Diagnostic, Severity } from '../answers/diagnostics';
import { displayPath } from '../common/paths';
import { placedLines } from './placed-lines';
import { locationPrefix, type RenderOptions } from './style';

export function diagnosticLines(diagnostics: readonly Diagnostic[], o: RenderOptions): string {
  const c = o.colors;
  const paint: Record<Severity, (s: string) => string> = { error: c.red, warning: c.yellow, info: c.blue, hint: c.dim };
  const places = diagnostics.map((d) => {
    const tag = [d.source, d.code].filter((x) => x !== undefined && x !== '').join(' ');
    // One line per diagnostic: continuation lines (pyright indents them with no-break spaces) fold into one.
    const message = d.message.replace(/\s*\n\s*/g, ' ');
    const path = displayPath(d.path, o.cwd);
    const text = `${locationPrefix(o, path, d.line, d.column)} ${paint[d.severity](`${d.severity}:`)} ${message}${tag ? c.dim(` [${tag}]`) : ''}`;
    return { path, line: d.line, text, context: d.context };
  });
  return placedLines(places);
}
