/**
 * diag's answer in the formats CI systems read: SARIF 2.1.0 (GitHub code
 * scanning, GitLab, Azure DevOps) and GitHub Actions workflow commands
 * (`::error file=...::message`, shown inline on a pull request). Pure.
 */
import type { Log, Result, Run } from 'sarif';
import { BUILD } from '../../common/build-info';
import type { Diagnostic, Severity } from '../../answers/diagnostics';
import type { DiagResult } from './question';
import { displayPath } from '../../common/paths';

const LEVEL: Record<Severity, Result.level> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/** A path as SARIF names it: relative to the repository's top (where lspq ran, outside one), with forward slashes. */
function artifactUri(path: string, cwd: string): string {
  const shown = displayPath(path, cwd);
  return shown.startsWith('/') ? `file://${encodeURI(shown)}` : encodeURI(shown);
}

const ruleOf = (d: Diagnostic) => (d.code !== undefined && d.code !== '' ? String(d.code) : undefined);

/** One run per source (ts, Pyright, Ruff, compiler), each source a tool with its codes as rules. */
export function sarifLog(r: DiagResult, cwd: string): Log {
  const bySource = new Map<string, Diagnostic[]>();
  for (const d of r.diagnostics) {
    const source = d.source ?? 'lspq';
    bySource.set(source, [...(bySource.get(source) ?? []), d]);
  }
  const runs: Run[] = [...bySource].map(([source, list]) => {
    const rules = [...new Set(list.map(ruleOf).filter((x): x is string => x !== undefined))].sort();
    return {
      tool: {
        driver: {
          name: source,
          version: BUILD.version,
          rules: rules.map((id) => ({ id })),
        },
      },
      columnKind: 'unicodeCodePoints',
      originalUriBaseIds: { '%SRCROOT%': { uri: `file://${encodeURI(cwd.endsWith('/') ? cwd : `${cwd}/`)}` } },
      results: list.map((d) => {
        const rule = ruleOf(d);
        return {
          ...(rule ? { ruleId: rule, ruleIndex: rules.indexOf(rule) } : {}),
          level: LEVEL[d.severity],
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(d.path, cwd), uriBaseId: '%SRCROOT%' },
                region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn },
              },
            },
          ],
          ...(d.new !== undefined ? { baselineState: d.new ? 'new' : 'unchanged' } : {}),
        } satisfies Result;
      }),
    };
  });
  return { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs };
}

/** A workflow command's data and properties escape what would end them early. */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

/** One `::error file=...,line=...,col=...::message` line per diagnostic. */
export function githubCommands(r: DiagResult, cwd: string): string {
  return r.diagnostics
    .map((d) => {
      const title = [d.source, d.code].filter((x) => x !== undefined && x !== '').join(' ');
      const props = [
        `file=${escapeProperty(displayPath(d.path, cwd))}`,
        `line=${d.line}`,
        `col=${d.column}`,
        `endLine=${d.endLine}`,
        `endColumn=${d.endColumn}`,
        ...(title ? [`title=${escapeProperty(title)}`] : []),
      ];
      return `::${COMMAND[d.severity]} ${props.join(',')}::${escapeData(d.message)}\n`;
    })
    .join('');
}
