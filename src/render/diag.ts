/** diag: compiler-style lines, sorted by path and line, and a summary. */
import type { DiagResult, Severity } from '../queries';
import { displayPath } from '../protocol/paths';
import { locationPrefix, type RenderOptions } from './style';
import { placedLines } from './excerpts';
import type { DiagShape } from './json-shapes';
import type { Rendered } from './types';
import type * as z from 'zod/mini';

export function diagJson(r: DiagResult, cwd: string): z.infer<typeof DiagShape> {
  return {
    diagnostics: r.diagnostics.map((d) => ({ ...d, path: displayPath(d.path, cwd) })),
    summary: r.summary,
    files: r.files.map((f) => displayPath(f, cwd)),
    total: r.total,
    truncated: r.truncated,
    incomplete: r.incomplete.map((f) => displayPath(f, cwd)),
    skipped: r.skipped.map((s) => ({ path: displayPath(s.path, cwd), reason: s.reason })),
    // Like every other answer: the server and root; `servers` pairs each server asked with its root.
    server: r.answered[0]?.server ?? '',
    root: r.answered[0]?.root ?? '',
    servers: r.answered,
    ...(r.since ? { since: r.since } : {}),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLine(r: DiagResult): string {
  const counts = (['error', 'warning', 'info', 'hint'] as Severity[])
    .filter((s) => r.summary[s] > 0)
    .map((s) => plural(r.summary[s], s));
  // A file whose diagnostics did not complete, or that could not be checked, is not "without problems": counted apart.
  const skipped = r.skipped.length ? `; ${plural(r.skipped.length, 'file')} skipped` : '';
  const where = `${plural(r.files.length - r.incomplete.length, 'file')}${skipped}`;
  if (r.since) {
    const old = Object.values(r.since.present).reduce((a, b) => a + b, 0);
    const already = old ? `; ${plural(old, 'problem')} already at ${r.since.rev}, not counted` : '';
    return `${counts.length ? `${counts.join(', ')} new` : 'nothing new'} since ${r.since.rev} in ${where}${already}`;
  }
  return counts.length ? `${counts.join(', ')} in ${where}` : `no problems in ${where}`;
}

/** One line for each file left out, for stderr. */
export function skippedLines(r: DiagResult, cwd: string): string[] {
  return r.skipped.map((s) => `skipped ${displayPath(s.path, cwd)}: ${s.reason}`);
}

export function renderDiag(r: DiagResult, o: RenderOptions): Rendered {
  const c = o.colors;
  const paint: Record<Severity, (s: string) => string> = { error: c.red, warning: c.yellow, info: c.blue, hint: c.dim };
  const places = r.diagnostics.map((d) => {
    const tag = [d.source, d.code].filter((x) => x !== undefined && x !== '').join(' ');
    // One line per diagnostic: continuation lines (pyright indents them with no-break spaces) fold into one.
    const message = d.message.replace(/\s*\n\s*/g, ' ');
    const path = displayPath(d.path, o.cwd);
    const text = `${locationPrefix(o, path, d.line, d.column)} ${paint[d.severity](`${d.severity}:`)} ${message}${tag ? c.dim(` [${tag}]`) : ''}`;
    return { path, line: d.line, text, context: d.context };
  });
  return {
    stdout: placedLines(places),
    stderr: summaryLine(r),
    ...(r.truncated
      ? { warning: `${r.total - r.diagnostics.length} more diagnostics not shown; raise --limit to see them` }
      : {}),
  };
}
