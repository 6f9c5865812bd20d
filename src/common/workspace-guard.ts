/**
 * The one guard for every file lspq writes in a workspace: an edit (rename,
 * mv, fmt --write, actions --apply, from a batch or MCP) and lspq's own
 * files (`.lspq/`). A write is judged where it lands: a link's target, or
 * for a path not made yet, where its nearest existing folder really is; it
 * must land inside the workspace root unless the user allowed outside.
 * Files are then made without following links: temporary files with
 * exclusive creation, folders one at a time, each checked to be a folder.
 */
import { closeSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LspqError } from './errors';
import { isWithin } from './paths';
import { realOf } from './real-path';

/** Whether anything stands at `path`, a dangling link included (lstat, never following). */
export const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * Where a write to `path` lands: where the file really is (a link's target,
 * each linked folder on the way followed); for a path not there yet, where
 * its nearest existing folder really is, with the rest of its names.
 */
export function whereItLands(path: string): string {
  const rest: string[] = [];
  let at = path;
  while (!exists(at)) {
    const up = dirname(at);
    if (up === at) break;
    rest.unshift(basename(at));
    at = up;
  }
  const real = realOf(at);
  // A link whose target is missing: the write replaces the link itself, where it is.
  const landed = real === at && rest.length === 0 ? join(realOf(dirname(at)), basename(at)) : real;
  return rest.length ? join(landed, ...rest) : landed;
}

/**
 * Whether `path` lies in a `.git` folder below `root`, as named or where it
 * lands: git runs what its hooks folder holds, and its config can name
 * programs, so a model's edit there is code that runs at the next commit.
 */
export function inGitFolder(path: string, root: string, lands = whereItLands(path)): boolean {
  const below = (p: string, top: string) => (isWithin(p, top) ? p.slice(top.length).split('/') : []);
  const names = [...below(path, root), ...below(lands, realOf(root))];
  // Lower-cased: on a case-insensitive disk (macOS) `.GIT/hooks` is git's folder too.
  return names.some((name) => name.toLowerCase() === '.git');
}

/**
 * Refuses a write to `path` that lands outside `root` (exit 2), naming
 * where it leads; nothing is written. `pinned`: the root is an MCP
 * server's workspace, which no flag widens, and no write lands in its
 * `.git` folders either.
 */
export function guardWrite(path: string, root: string, allowOutside: boolean, pinned = false): void {
  if (allowOutside) return;
  const lands = whereItLands(path);
  if (pinned && inGitFolder(path, root, lands))
    throw new LspqError(
      'outside_workspace',
      `the edit would change ${path}, inside a .git folder, which no MCP edit writes (git runs its hooks); nothing was written`,
    );
  if (isWithin(lands, realOf(root))) return;
  const through = lands !== path && isWithin(path, root) ? ` (it is ${lands}, through a symbolic link)` : '';
  const fix = pinned
    ? 'the workspace this MCP server was started for; nothing was written (start one there: lspq mcp --root DIR)'
    : `the workspace root ${root}; nothing was written (add --allow-outside to allow it)`;
  throw new LspqError('outside_workspace', `the edit would change ${path}${through}, outside ${fix}`);
}

/** Makes the folders of `dir` that are missing, one at a time, refusing a name that is there and no folder. */
export function makeFolders(dir: string): void {
  if (exists(dir)) {
    if (!lstatSync(dir).isDirectory() && !lstatSync(realOf(dir)).isDirectory())
      throw new LspqError('usage', `${dir} is not a folder`);
    return;
  }
  makeFolders(dirname(dir));
  try {
    mkdirSync(dir);
  } catch (err) {
    // Made meanwhile by another program: fine if it is a folder.
    if (!exists(dir) || !lstatSync(dir).isDirectory()) throw err;
  }
}

/**
 * One of lspq's own files in a workspace (`.lspq/index.scip`,
 * `.lspq/.gitignore`), written whole: inside `root` by the guard, its
 * folders made without following links, a temporary file made exclusively
 * and renamed over whatever was at the name (a link is replaced, never
 * written through).
 */
export function writeOwnFile(path: string, bytes: Uint8Array | string, root: string): void {
  guardWrite(path, root, false);
  makeFolders(dirname(path));
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
