/** fmt: the diff of what formatting changes; with --write, the files rewritten; with --check, the files that would change. */
import type * as z from 'zod/mini';
import { changedLines, unifiedDiff } from '../../render/diff';
import { plural, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { FmtResult } from './question';
import type { FmtShape } from './shape';

export type FmtMode = 'diff' | 'write' | 'check';

export function fmtJson(r: FmtResult, cwd: string): z.infer<typeof FmtShape> {
  return {
    files: r.files.map((f) => ({
      path: displayPath(f.path, cwd),
      changed: f.changed,
      edits: f.edits,
      lines: changedLines(f.before, f.after),
      formatter: f.formatter,
    })),
    formatters: r.formatters.map((f) => ({
      ...f,
      ...(f.config ? { config: displayPath(f.config, cwd) } : {}),
      ...(f.binary ? { binary: displayPath(f.binary, cwd) } : {}),
      ...(f.passedOver ? { passedOver: { ...f.passedOver, config: displayPath(f.passedOver.config, cwd) } } : {}),
    })),
    written: r.written,
    server: r.answered[0]?.server ?? '',
    root: r.answered[0]?.root ?? '',
    servers: r.answered,
  };
}

/**
 * The note that says which formatter decided: the project's (its
 * configuration and program), a server's in place of the project's left
 * out, or a server's where the project names none; unsaid only where
 * --server chose it.
 */
export function formatterNote(
  r: Pick<FmtResult, 'formatters' | 'chosen'>,
  cwd: string,
  mode: FmtMode,
): string | undefined {
  const verb = mode === 'check' ? 'checked' : 'formatted';
  const said = r.formatters.flatMap((f) => {
    if (f.by === 'project' && f.config && f.binary)
      return [`${verb} with ${f.name}, as ${displayPath(f.config, cwd)} asks (${displayPath(f.binary, cwd)})`];
    if (f.passedOver)
      return [
        `${verb} with ${f.name}'s formatter, not ${f.passedOver.name} (${displayPath(f.passedOver.config, cwd)}), which was left out`,
      ];
    if (f.by === 'server' && !r.chosen)
      return [`${verb} with ${f.name}${f.runs ? `, which runs ${f.runs}` : ''} (the project names no formatter)`];
    return [];
  });
  return said.length ? said.join('; ') : undefined;
}

/** --check where the project's formatter was left out: the server's verdict is not the project's (exit 3). */
export function notTheProjectsCheck(r: FmtResult, cwd: string): string | undefined {
  const passed = r.formatters.flatMap((f) => (f.passedOver ? [f] : []));
  if (passed.length === 0) return undefined;
  const names = passed.map((f) => `${f.passedOver?.name} (${displayPath(f.passedOver?.config ?? '', cwd)})`);
  return `not checked as the project formats: ${[...new Set(names)].join(', ')} left out, the server's formatter checked instead`;
}

/** The diff of what formatting changes; with --write, the files rewritten; with --check, the files that would change. */
export function renderFmt(r: FmtResult, o: RenderOptions, mode: FmtMode): Rendered {
  const changed = r.files.filter((f) => f.changed);
  const note = formatterNote(r, o.cwd, mode);
  const said = note ? { stderr: note } : {};
  if (mode === 'check') return { stdout: changed.map((f) => `${displayPath(f.path, o.cwd)}\n`).join(''), ...said };
  if (mode === 'write') {
    const lines = changed.map(
      (f) => `${displayPath(f.path, o.cwd)}: ${plural(changedLines(f.before, f.after), 'line')} changed\n`,
    );
    return { stdout: lines.join(''), ...said };
  }
  return {
    stdout: unifiedDiff(
      changed.map((f) => ({ path: f.path, changes: f.edits, before: f.before, after: f.after })),
      r.patchTop,
    ),
    ...said,
  };
}
