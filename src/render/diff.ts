/**
 * Edits as a unified diff that `git apply` (and `patch -p1`, and `lspq diag
 * --patch`) accept: a `diff --git` header per file, its paths from the top
 * of the checkout as git writes them, /dev/null for created and deleted
 * files, rename headers for a file moved (with its edits, or alone), three
 * lines of context. Pure; the line diff is jsdiff's.
 */
import { diffLines, structuredPatch } from 'diff';
import type { FileEdit } from '../answers/edits';
import { displayPath } from '../common/paths';
import { inPlaceHunks } from './line-hunks';

/** Lines of context around each change, as git diff gives them. */
const CONTEXT = 3;

/** A file moved with its text as it is: a rename without hunks, whatever the file holds. */
export interface MovedFile {
  path: string;
  renamedTo: string;
}

/** A file of a patch: its edit (moved or not), or a move alone. */
export type PatchFile = FileEdit | MovedFile;

/** `files` as a patch whose paths are written from `top` (the checkout's top: where `git apply` reads them from). */
export function unifiedDiff(files: readonly PatchFile[], top: string): string {
  let out = '';
  for (const f of files) {
    const from = displayPath(f.path, top);
    const to = f.renamedTo ? displayPath(f.renamedTo, top) : from;
    out += `diff --git a/${from} b/${to}\n`;
    if (!('before' in f)) {
      out += `rename from ${from}\nrename to ${to}\n`;
      continue;
    }
    if (f.before === null) out += 'new file mode 100644\n';
    if (f.after === null) out += 'deleted file mode 100644\n';
    if (f.renamedTo) out += `rename from ${from}\nrename to ${to}\n`;
    const before = f.before ?? '';
    const after = f.after ?? '';
    if (before === after) continue;
    // Lines replaced in place (a rename) are compared line by line; anything else is diffed.
    const hunks =
      inPlaceHunks(before, after, CONTEXT) ??
      structuredPatch(from, to, before, after, undefined, undefined, { context: CONTEXT }).hunks;
    out += `--- ${f.before === null ? '/dev/null' : `a/${from}`}\n+++ ${f.after === null ? '/dev/null' : `b/${to}`}\n`;
    for (const h of hunks) {
      // A side with no lines is numbered at the line before it, as diff(1) does.
      const old =
        h.oldLines === 0 ? `${h.oldStart - 1},0` : h.oldLines === 1 ? `${h.oldStart}` : `${h.oldStart},${h.oldLines}`;
      const now =
        h.newLines === 0 ? `${h.newStart - 1},0` : h.newLines === 1 ? `${h.newStart}` : `${h.newStart},${h.newLines}`;
      out += `@@ -${old} +${now} @@\n${h.lines.join('\n')}\n`;
    }
  }
  return out;
}

/**
 * How many lines an edit changes: a line replaced counts once, a line
 * added or removed once. A formatter's answer may be a hundred text edits
 * for one line (a whole CRLF file re-sent line by line); this is the count
 * a person means.
 */
export function changedLines(before: string, after: string): number {
  let changed = 0;
  let removed = 0;
  let added = 0;
  const settle = () => {
    changed += Math.max(removed, added);
    removed = 0;
    added = 0;
  };
  for (const part of diffLines(before.replace(/\r\n/g, '\n'), after.replace(/\r\n/g, '\n'))) {
    if (part.removed) removed += part.count ?? 0;
    else if (part.added) added += part.count ?? 0;
    else settle();
  }
  settle();
  return changed;
}
