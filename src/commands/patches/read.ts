/**
 * A patch (diag --patch, apply): a unified diff, as `git diff` and agents write it, read
 * with the `diff` package and applied to the files as they are, in memory.
 * Each file it touches comes out with its text before and after (null:
 * absent), renames and copies followed. Exact: every context and removed
 * line must match (fuzz factor 0); a hunk may sit elsewhere in the file
 * than its header says, as `git apply` allows. A patch that does not apply
 * names the file and the hunk. Pure: files are read through `read`.
 */
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import type { ChangedFile, ReadPatch } from '../../answers/diagnostics';
import { LspqError, usage, messageOf } from '../../common/errors';

export type { ReadPatch };

const NULL = '/dev/null';

/**
 * Whether a file's names carry git's `a/` and `b/` prefixes (a name with
 * them is read without; `git diff --no-prefix` writes the paths as they are).
 */
function prefixed(p: StructuredPatch): boolean {
  return (
    (p.oldFileName === NULL || p.oldFileName?.startsWith('a/') === true) &&
    (p.newFileName === NULL || p.newFileName?.startsWith('b/') === true)
  );
}

const cut = (line: string) => (line.length > 60 ? `${line.slice(0, 57)}...` : line);
const quoted = (line: string) => JSON.stringify(cut(line.replace(/\r$/, '')));

/** Why `hunk`, the patch's `n`th (1-based), does not fit `text`: the first of its lines the file does not have where it says. */
function misfit(name: string, hunk: StructuredPatch['hunks'][number], n: number, text: string): string {
  const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const expected = hunk.lines.filter((l) => l[0] === ' ' || l[0] === '-').map((l) => l.slice(1).replace(/\r$/, ''));
  const start = Math.max(hunk.oldStart, 1);
  for (const [i, want] of expected.entries()) {
    const at = start + i;
    const has = at <= lines.length && !(at === lines.length && lines[at - 1] === '') ? lines[at - 1] : undefined;
    if (has !== want)
      return `the patch does not apply: ${name} hunk ${n} (${header}) expects ${quoted(want)} at line ${at}, where the file ${has === undefined ? 'has ended' : `has ${quoted(has)}`}`;
  }
  return `the patch does not apply: ${name} hunk ${n} (${header}) does not fit after the hunks before it`;
}

/** `text` with `patch`'s hunks applied, exactly; or the error naming the hunk that does not fit. */
function applied(name: string, patch: StructuredPatch, text: string): string {
  const out = applyPatch(text, patch, { fuzzFactor: 0 });
  if (out !== false) return out;
  // The first hunk that does not fit after those before it.
  for (const [k, hunk] of patch.hunks.entries())
    if (applyPatch(text, { ...patch, hunks: patch.hunks.slice(0, k + 1) }, { fuzzFactor: 0 }) === false)
      throw new LspqError('patch_does_not_apply', misfit(name, hunk, k + 1, text));
  throw new LspqError('patch_does_not_apply', `the patch does not apply to ${name}`);
}

/**
 * The files `text` (a unified diff) touches, as they are (`read`, by the
 * path `resolve` gives a name of the patch; undefined: no such file) and as
 * the patch makes them.
 */
export function readPatch(
  text: string,
  resolve: (name: string) => string,
  read: (path: string) => string | undefined,
  show: (path: string) => string,
): ReadPatch {
  // Nothing at all (git diff of a clean tree, a redirect that wrote no file): nothing was given to check.
  if (text.trim() === '')
    throw usage(
      "the patch is empty: there is nothing to check; give a unified diff (git diff's output) that changes something",
    );
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(text);
  } catch (err) {
    throw usage(`the patch cannot be read: ${messageOf(err)}; give a unified diff (git diff's output)`);
  }
  patches = patches.filter((p) => p.oldFileName !== undefined || p.newFileName !== undefined || p.hunks.length > 0);
  if (patches.length === 0) throw usage("the patch names no file: give a unified diff (git diff's output)");
  const pathOf = (name: string | undefined, strip: boolean) =>
    name === undefined || name === NULL ? undefined : resolve(strip ? name.slice(2) : name);
  // The tree as the patch goes: each path's text so far (null: gone), and what it was on disk.
  const now = new Map<string, string | null>();
  const was = new Map<string, string | null>();
  const renamedFrom = new Map<string, string>();
  const binary: string[] = [];
  const current = (path: string) => {
    const known = now.get(path);
    if (known !== undefined) return known;
    const disk = read(path);
    was.set(path, disk ?? null);
    return disk ?? null;
  };
  for (const p of patches) {
    const strip = prefixed(p);
    const from = pathOf(p.oldFileName, strip);
    const to = pathOf(p.newFileName, strip);
    const creates = from === undefined || (p.isCreate === true && !p.isRename && !p.isCopy);
    const deletes = to === undefined || p.isDelete === true;
    const path = to ?? from;
    if (path === undefined)
      throw usage('the patch has hunks that name no file: give a unified diff with its --- and +++ lines');
    if (p.isBinary) {
      binary.push(path);
      continue;
    }
    const source = creates ? null : current(from);
    if (!creates && source === null)
      throw new LspqError(
        'patch_does_not_apply',
        `the patch does not apply: ${show(from)} does not exist (the patch changes it)`,
      );
    if (creates && current(path) !== null)
      throw new LspqError(
        'patch_does_not_apply',
        `the patch does not apply: ${show(path)} already exists (the patch creates it)`,
      );
    const result = applied(show(from ?? path), p, source ?? '');
    if (deletes) {
      const gone = from ?? path;
      if (result !== '' && p.hunks.length > 0)
        throw new LspqError(
          'patch_does_not_apply',
          `the patch does not apply: it deletes ${show(gone)}, whose text holds more than the lines it removes`,
        );
      now.set(gone, null);
      continue;
    }
    if (from !== undefined && from !== path) {
      if (current(path) !== null)
        throw new LspqError(
          'patch_does_not_apply',
          `the patch does not apply: ${show(path)} already exists (the patch ${p.isCopy ? 'copies' : 'renames'} ${show(from)} to it)`,
        );
      if (!p.isCopy) {
        now.set(from, null);
        renamedFrom.set(path, renamedFrom.get(from) ?? from);
        renamedFrom.delete(from);
      }
    }
    now.set(path, result);
  }
  const origins = new Set(renamedFrom.values());
  const files: ChangedFile[] = [];
  for (const [path, after] of now) {
    const origin = renamedFrom.get(path);
    if (origin !== undefined) {
      // Renamed: said where it goes, its text before taken from where it was; renamed and then deleted: deleted.
      files.push(
        after !== null
          ? { path, before: was.get(origin) ?? null, after, renamedFrom: origin }
          : { path: origin, before: was.get(origin) ?? null, after: null },
      );
      continue;
    }
    const before = was.get(path) ?? null;
    if (before === after || (origins.has(path) && after === null)) continue;
    files.push({ path, before, after });
  }
  return { files, binary };
}
