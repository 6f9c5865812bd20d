/** rename: the diff (dry run) or the files written, the old name left where the server did not rename, --verify's word. */
import type { Leftover } from '../../engine/unrenamed';
import type * as z from 'zod/mini';
import { unifiedDiff } from '../../render/diff';
import { editsJson, verificationJson, verified, writtenLines } from '../../render/written';
import { locationJson, targetJson } from '../../render/place-json';
import { plural, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { RenameResult } from './question';
import type { RenameShape } from './shape';

export function renameJson(r: RenameResult, cwd: string): z.infer<typeof RenameShape> {
  return {
    target: targetJson(r.target, cwd),
    server: r.server,
    root: r.root,
    newName: r.newName,
    files: editsJson(r.files, cwd),
    applied: r.applied,
    unrenamed: r.unrenamed.map((l) => locationJson(l, cwd)),
    ...(r.builds?.length ? { builds: r.builds } : {}),
    ...verificationJson(r.verification, cwd),
  };
}

/** The old name still written in files the server did not rename: where, a few of them. */
const LEFTOVER_WORDS: Record<Leftover, string> = {
  'comment or string': 'in comments or strings',
  'built output': 'in built output',
  'another build configuration': 'in code another build configuration compiles: another platform, an inactive #ifdef',
  'outside what it knows': 'in files outside what it knows',
};

function unrenamedNote(r: RenameResult, cwd: string): string | undefined {
  if (r.unrenamed.length === 0) return undefined;
  const at = r.unrenamed.slice(0, 5).map((l) => `${displayPath(l.path, cwd)}:${l.line}:${l.column}`);
  const more = r.unrenamed.length > 5 ? `, and ${r.unrenamed.length - 5} more` : '';
  const old = r.oldName ?? r.target.symbol ?? 'the old name';
  const what = r.leftovers.map((l) => LEFTOVER_WORDS[l]).join('; ');
  return `'${old}' is still written where ${r.server} did not rename it (${what}): ${at.join(', ')}${more}`;
}

export function renderRename(r: RenameResult, o: RenderOptions): Rendered {
  return verified(renameOutput(r, o), r.verification, `the rename to '${r.newName}'`, o);
}

function renameOutput(r: RenameResult, o: RenderOptions): Rendered {
  const warning = unrenamedNote(r, o.cwd);
  if (!r.applied) return { stdout: unifiedDiff(r.files, r.patchTop), ...(warning ? { warning } : {}) };
  const edits = r.files.reduce((n, f) => n + f.changes, 0);
  return {
    stdout: writtenLines(r.files, o.cwd),
    stderr: `renamed to '${r.newName}': ${plural(edits, 'edit')} in ${plural(r.files.length, 'file')}`,
    ...(warning ? { warning } : {}),
  };
}
