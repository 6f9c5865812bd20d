/**
 * The one rule for what a diagnosis ends in, for every diag form (files,
 * --staged, --all, --since, --patch) and the after-edit hook: problems at
 * --fail-on are exit 1; an answer that is not whole is exit 3 (a file's
 * diagnostics not in time, a checker left out, a file no installed server
 * checks that the answer needs); a file not checked that it does not need
 * (a Markdown file without marksman) is a note. The problems found are
 * reported whichever. Pure.
 */
import { SEVERITIES, type Severity, type Unchecked, type Withheld } from '../answers/diagnostics';
import { displayPath } from '../common/paths';

/** What a diagnosis found and what it could not check, as every diag form and the hook answer it. */
export interface Diagnosed {
  summary: Record<Severity, number>;
  incomplete: string[];
  withheld: Withheld[];
  unchecked: Unchecked[];
}

export interface Verdict {
  exit: 0 | 1 | 3;
  /** Problems at --fail-on or worse were found. */
  failing: boolean;
  /** Why the answer is not whole, one line each (exit 3). */
  gaps: string[];
  /** Files not checked that the answer does not need, in one line. */
  notes: string[];
}

/** Files named together: a few by name, many by count. */
function fileList(paths: string[], cwd: string): string {
  const shown = paths.slice(0, 3).map((p) => displayPath(p, cwd));
  return paths.length > 3 ? `${shown.join(', ')} and ${paths.length - 3} more` : shown.join(', ');
}

/** One line per reason (one missing server, its files together). */
function uncheckedLines(list: Unchecked[], cwd: string): string[] {
  const byReason = new Map<string, string[]>();
  for (const u of list) byReason.set(u.reason, [...(byReason.get(u.reason) ?? []), u.path]);
  return [...byReason].map(([reason, paths]) => `not checked: ${fileList(paths, cwd)} (${reason})`);
}

/** `failOn` undefined: never fail on problems (--fail-on never). */
export function verdict(d: Diagnosed, failOn: Severity | undefined, cwd: string): Verdict {
  const failing =
    failOn !== undefined && SEVERITIES.slice(0, SEVERITIES.indexOf(failOn) + 1).some((s) => d.summary[s] > 0);
  const gaps = [
    ...uncheckedLines(
      d.unchecked.filter((u) => u.needed),
      cwd,
    ),
    ...(d.withheld.length
      ? [
          `diagnostics are incomplete: ${d.withheld.map((w) => `${w.server} left out ${w.missing} (${w.fix})`).join('; ')}`,
        ]
      : []),
    ...(d.incomplete.length
      ? [
          `diagnostics are incomplete for ${d.incomplete.length > 3 ? `${d.incomplete.length} files` : d.incomplete.map((p) => displayPath(p, cwd)).join(', ')}: the server did not finish in time; retry with a larger --timeout`,
        ]
      : []),
  ];
  const notes = uncheckedLines(
    d.unchecked.filter((u) => !u.needed),
    cwd,
  );
  return { exit: gaps.length ? 3 : failing ? 1 : 0, failing, gaps, notes };
}
