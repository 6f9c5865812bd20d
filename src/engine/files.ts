/**
 * The files a question names, checked before a server is asked: there, a
 * regular file, text, not too large; a link answered from the project of
 * the file it points to, and shown as the user named it.
 */

import { isInside, isWithin } from '../common/paths';
import { realOf } from '../common/real-path';
import { whereItLands } from '../common/workspace-guard';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import type { BoundedCache } from '../common/bounded-cache';
import { LspqError } from '../common/errors';
import { maxFileBytes, sizeOf, tooLarge } from '../common/file-size';

const BINARY_SNIFF_BYTES = 8_000;

/**
 * A regular file of text: anything else is bad input, refused before a
 * server starts. `texts` remembers the versions found to be text (by inode,
 * size and times), so a warm question does not read its file's head again.
 */
export function assertFile(path: string, texts?: BoundedCache<string, string>): void {
  let st: Stats | undefined;
  try {
    st = statSync(path);
  } catch {}
  if (!st?.isFile()) {
    const why = existsSync(path) ? 'is not a regular file' : 'does not exist';
    throw new LspqError(
      'file_not_found',
      `${path} ${why}; check the path (relative paths are from the current directory)`,
    );
  }
  if (st.size > maxFileBytes()) throw tooLarge(path, st.size);
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  if (texts?.get(path) === stamp) return;
  if (holdsNul(path)) throw notText(path);
  texts?.set(path, stamp);
}

/**
 * A question from an MCP server reads nothing outside its pinned workspace
 * (`confine`): the path the command's parser found is judged where it
 * lands, whatever the MCP server made of the words before.
 */
export function assertConfined(path: string, confine: string | undefined): void {
  if (confine === undefined || isWithin(whereItLands(path), realOf(confine))) return;
  throw new LspqError(
    'outside_workspace',
    `${path} is outside the workspace this MCP server was started for (${confine}); start another in that folder (lspq mcp --root DIR)`,
  );
}

/**
 * The file a path resolves to, and how to show paths in it: a symlink is
 * answered from the project of the file it points to, and locations in
 * that file are printed as the user wrote the link when it lies under the
 * current directory.
 */
export function followLink(path: string, cwd: string): { real: string; shown: (p: string) => string } {
  let real = path;
  let realCwd = cwd;
  try {
    real = realpathSync(path);
    realCwd = realpathSync(cwd);
  } catch {
    return { real, shown: (p) => p };
  }
  const linkShown = real !== path && isInside(path, cwd);
  // The current directory reached through a link (cd into a linked folder): the project's paths as under it.
  const cwdLinked = realCwd !== cwd;
  return {
    real,
    shown: (p) => {
      if (linkShown && p === real) return path;
      if (cwdLinked && isInside(p, realCwd)) return `${cwd}${p.slice(realCwd.length)}`;
      return p;
    },
  };
}

/**
 * The name a server is given for a linked file: the link itself when it
 * lies inside the project the server runs for, since the project includes
 * the file by that name (given the target's name instead, tsserver counted
 * the file twice and listed its declaration among the references, and
 * TypeScript 7 found no references at all); else the file it points to.
 */
export function nameInProject(path: string, real: string, root: string): string {
  return path !== real && path.startsWith(root.endsWith('/') ? root : `${root}/`) ? path : real;
}

/**
 * Why lspq cannot hand `path` to a server (a binary file, one past
 * LSPQ_MAX_FILE_MB), or undefined when it can: diag --all, --since and
 * --staged skip such a file with one line naming it and report the rest.
 */
export function unhandable(path: string): string | undefined {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    return undefined;
  }
  const max = maxFileBytes();
  if (size > max) return `${sizeOf(size)}, past the ${sizeOf(max)} lspq hands a server (LSPQ_MAX_FILE_MB)`;
  if (holdsNul(path)) return 'not a text file';
  return undefined;
}

const notText = (path: string) =>
  new LspqError('not_text', `${path} is not a text file (it holds NUL bytes); name a source file`);

/** Text that is not on disk (a staged file) holds no NUL bytes where git and grep look for them. */
export const isText = (text: string) => !text.slice(0, BINARY_SNIFF_BYTES).includes('\0');

function holdsNul(path: string): boolean {
  const head = Buffer.alloc(BINARY_SNIFF_BYTES);
  let fd: number | undefined;
  try {
    // Without blocking, and only a regular file: a FIFO swapped in since the stat is not waited on.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return false;
    const n = readSync(fd, head, 0, BINARY_SNIFF_BYTES, 0);
    return head.subarray(0, n).includes(0);
  } catch {
    return false; // unreadable: the open that follows says so
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
