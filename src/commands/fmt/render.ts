/** fmt: the diff of what formatting changes; with --write, the files rewritten; with --check, the files that would change. */
import type * as z from 'zod/mini';
import { changedLines, unifiedDiff } from '../../render/diff';
import { plural, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { FmtResult } from './question';
import type { FmtShape } from './shape';

export function fmtJson(r: FmtResult, cwd: string): z.infer<typeof FmtShape> {
  return {
    files: r.files.map((f) => ({
      path: displayPath(f.path, cwd),
      changed: f.changed,
      edits: f.edits,
      lines: changedLines(f.before, f.after),
    })),
    written: r.written,
    server: r.answered[0]?.server ?? '',
    root: r.answered[0]?.root ?? '',
    servers: r.answered,
  };
}

/** The diff of what formatting changes; with --write, the files rewritten; with --check, the files that would change. */
export function renderFmt(r: FmtResult, o: RenderOptions, mode: 'diff' | 'write' | 'check'): Rendered {
  const changed = r.files.filter((f) => f.changed);
  if (mode === 'check') return { stdout: changed.map((f) => `${displayPath(f.path, o.cwd)}\n`).join('') };
  if (mode === 'write') {
    const lines = changed.map(
      (f) => `${displayPath(f.path, o.cwd)}: ${plural(changedLines(f.before, f.after), 'line')} changed\n`,
    );
    return { stdout: lines.join('') };
  }
  return {
    stdout: unifiedDiff(
      changed.map((f) => ({ path: f.path, changes: f.edits, before: f.before, after: f.after })),
      r.patchTop,
    ),
  };
}
