/** diag: compiler-style lines, sorted by path and line, and a summary. */
import type * as z from 'zod/mini';
import { SEVERITIES, type Severity } from '../../answers/diagnostics';
import { diagnosticLines } from '../../render/diagnostic-lines';
import { cutLine, plural, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { DiagResult, StepResult } from './question';
import type { DiagShape } from './shape';

export function diagJson(r: DiagResult, cwd: string): z.infer<typeof DiagShape> {
  return {
    diagnostics: r.diagnostics.map((d) => ({ ...d, path: displayPath(d.path, cwd) })),
    summary: r.summary,
    shown: r.shown,
    hidden: hiddenCounts(r),
    files: r.files.map((f) => displayPath(f, cwd)),
    total: r.total,
    truncated: r.truncated,
    incomplete: r.incomplete.map((f) => displayPath(f, cwd)),
    skipped: r.skipped.map((s) => ({ path: displayPath(s.path, cwd), reason: s.reason })),
    // Like every other answer: the server and root; `servers` pairs each server asked with its root.
    server: r.answered[0]?.server ?? '',
    root: r.answered[0]?.root ?? '',
    servers: r.answered,
    withheld: r.withheld,
    unchecked: r.unchecked.map((u) => ({ ...u, path: displayPath(u.path, cwd) })),
    ...(r.tsconfig
      ? {
          tsconfig: {
            leftOut: r.tsconfig.leftOut.map((l) => ({
              path: displayPath(l.path, cwd),
              config: displayPath(l.config, cwd),
            })),
            loose: r.tsconfig.loose.map((f) => displayPath(f, cwd)),
          },
        }
      : {}),
    ...(r.since ? { since: r.since } : {}),
    ...(r.patch ? { patch: { ...r.patch, files: r.patch.files.map((f) => displayPath(f, cwd)) } } : {}),
    ...(r.steps
      ? {
          steps: r.steps.map((s) => ({
            ...s,
            diagnostics: s.diagnostics.map((d) => ({ ...d, path: displayPath(d.path, cwd) })),
          })),
        }
      : {}),
  };
}

/** What was found below the severity listed, by severity: counted, not listed. */
function hiddenCounts(r: DiagResult): Record<Severity, number> {
  const listed = SEVERITIES.indexOf(r.shown);
  const hidden: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const [i, s] of SEVERITIES.entries()) if (i > listed) hidden[s] = r.summary[s];
  return hidden;
}

/** `and 88 hints: --severity hint to show`: what --severity left out, so that nothing is hidden unsaid. */
export function hiddenLine(r: DiagResult): string | undefined {
  const hidden = hiddenCounts(r);
  const below = SEVERITIES.filter((s) => hidden[s] > 0);
  const least = below.at(-1);
  if (least === undefined) return undefined;
  const counts = below.map((s) => plural(hidden[s], s)).join(', ');
  return `${r.diagnostics.length > 0 ? 'and ' : ''}${counts}: --severity ${least} to show`;
}

export function summaryLine(r: DiagResult): string {
  const counts = SEVERITIES.filter((s) => r.summary[s] > 0).map((s) => plural(r.summary[s], s));
  // A file whose diagnostics did not complete, or that could not be checked, is not "without problems": counted apart.
  const skipped = r.skipped.length ? `; ${plural(r.skipped.length, 'file')} skipped` : '';
  const where = `${plural(r.files.length - r.incomplete.length, 'file')}${skipped}`;
  if (r.patch) {
    const old = Object.values(r.patch.present).reduce((a, b) => a + b, 0);
    const fresh = Object.values(r.patch.introduced).reduce((a, b) => a + b, 0);
    const already = old ? `; ${plural(old, 'problem')} already there, not counted` : '';
    const touched = plural(r.patch.files.length, 'file');
    const patches = r.steps ? `${r.steps.length} patches` : 'the patch';
    // --all lists the patched files' old problems too: how many of those listed are new is said apart.
    const listed = counts.length && fresh !== Object.values(r.summary).reduce((a, b) => a + b, 0);
    const what = !counts.length
      ? 'nothing new'
      : listed
        ? `${counts.join(', ')} (${fresh} new)`
        : `${counts.join(', ')} new`;
    return `${what} with ${patches} (${touched} touched) in ${where}${already}`;
  }
  if (r.since) {
    const old = Object.values(r.since.present).reduce((a, b) => a + b, 0);
    const already = old ? `; ${plural(old, 'problem')} already at ${r.since.rev}, not counted` : '';
    return `${counts.length ? `${counts.join(', ')} new` : 'nothing new'} since ${r.since.rev} in ${where}${already}`;
  }
  return counts.length ? `${counts.join(', ')} in ${where}` : `no problems in ${where}`;
}

/** A few files by name, the rest by count. */
function someOf(paths: string[], cwd: string): string {
  const named = paths.slice(0, 3).map((p) => displayPath(p, cwd));
  return paths.length > 3 ? `${named.join(', ')} and ${paths.length - 3} more` : named.join(', ');
}

/**
 * Where the files --all checked are not git's sources: those the tsconfigs leave out, as tsc does, one line per
 * tsconfig; those under none, checked with the server's defaults where tsc -p checks nothing.
 */
export function tsconfigLines(r: DiagResult, cwd: string): string[] {
  if (!r.tsconfig) return [];
  const byConfig = new Map<string, string[]>();
  for (const l of r.tsconfig.leftOut) byConfig.set(l.config, [...(byConfig.get(l.config) ?? []), l.path]);
  const left = [...byConfig].map(
    ([config, paths]) =>
      `left out ${plural(paths.length, 'file')} ${displayPath(config, cwd)} does not include, as tsc does: ${someOf(paths, cwd)}`,
  );
  const loose = r.tsconfig.loose;
  return loose.length
    ? [
        ...left,
        `checked ${plural(loose.length, 'file')} no tsconfig includes, with the server's defaults (tsc -p would not): ${someOf(loose, cwd)}`,
      ]
    : left;
}

/** One line for each file left out, for stderr. */
export function skippedLines(r: DiagResult, cwd: string): string[] {
  return r.skipped.map((s) => `skipped ${displayPath(s.path, cwd)}: ${s.reason}`);
}

/** What one step of a chain introduced, in a few words: `introduces 2 errors, 1 warning`. */
function introducedWords(s: StepResult, steps: StepResult[]): string {
  // The steps checked come first: the last of them is the one that failed.
  if (!s.checked) return `not checked (step ${steps.filter((t) => t.checked).length} introduces problems)`;
  const counts = SEVERITIES.filter((k) => s.introduced[k] > 0).map((k) => plural(s.introduced[k], k));
  return counts.length ? `introduces ${counts.join(', ')}` : 'introduces nothing';
}

/** A chain: a line per step (`step 2 of 3 (b.patch): introduces 2 errors`), each followed by its problems. */
export function stepLines(steps: StepResult[], o: RenderOptions): string {
  return steps
    .map(
      (s, i) =>
        `step ${i + 1} of ${steps.length} (${s.patch}): ${introducedWords(s, steps)}\n${diagnosticLines(s.diagnostics, o)}`,
    )
    .join('');
}

export function renderDiag(r: DiagResult, o: RenderOptions): Rendered {
  const hidden = hiddenLine(r);
  return {
    stdout: r.steps ? stepLines(r.steps, o) : `${diagnosticLines(r.diagnostics, o)}${hidden ? `${hidden}\n` : ''}`,
    stderr: summaryLine(r),
    ...(r.truncated ? { cut: cutLine(r.diagnostics.length, r.total) } : {}),
  };
}
