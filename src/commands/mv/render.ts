/** mv: the diff of the edits and the move (dry run), or the files written and what moved. */
import type * as z from 'zod/mini';
import { type PatchFile, unifiedDiff } from '../../render/diff';
import { editsJson, verificationJson, verified, writtenLines } from '../../render/written';
import { plural, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { MvResult } from './question';
import type { MvShape } from './shape';

export function mvJson(r: MvResult, cwd: string): z.infer<typeof MvShape> {
  return {
    moves: r.moves.map((m) => ({ from: displayPath(m.from, cwd), to: displayPath(m.to, cwd) })),
    files: editsJson(r.files, cwd),
    applied: r.applied,
    servers: r.servers,
    ...verificationJson(r.verification, cwd),
  };
}

/**
 * The move as a patch: each file it carries renamed (with the edit of it,
 * if any), and the edits of the files that stay.
 */
function patchOf(r: MvResult): PatchFile[] {
  const edited = new Map(r.files.map((f) => [f.path, f]));
  const moves = (r.carried ?? []).map(({ from, to }): PatchFile => {
    const edit = edited.get(to);
    edited.delete(to);
    return edit ? { ...edit, path: from, renamedTo: to } : { path: from, renamedTo: to };
  });
  // As git orders a patch: by where each file is after it.
  const at = (f: PatchFile) => f.renamedTo ?? f.path;
  return [...moves, ...edited.values()].sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
}

/** The diff of the edits and the move (dry run), or the files written and what moved. */
export function renderMv(r: MvResult, o: RenderOptions): Rendered {
  const moves = r.moves.map((m) => `${displayPath(m.from, o.cwd)} -> ${displayPath(m.to, o.cwd)}`).join(', ');
  const edits = r.files.reduce((n, f) => n + f.changes, 0);
  const updated = r.files.length ? `; ${plural(edits, 'edit')} in ${plural(r.files.length, 'file')}` : '';
  const out = r.applied
    ? { stdout: writtenLines(r.files, o.cwd), stderr: `moved ${moves}${updated}` }
    : { stdout: unifiedDiff(patchOf(r), r.patchTop), stderr: `would move ${moves}${updated}` };
  return verified(out, r.verification, `the move of ${moves}`, o);
}
