/**
 * How lspq reads a workspace's files, and how large a file it reads and
 * hands a server. A cloned repository is not to be trusted with the
 * daemon's one thread: a FIFO named `tsconfig.json` blocked it forever on
 * open, and `Cargo.toml -> /dev/zero` was read until memory ran out. So
 * every file of a workspace lspq reads itself is opened without blocking,
 * fstat'ed on that descriptor, and read only if it is a regular file no
 * larger than the cap for its kind; anything else is skipped and named.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { LspqError, errnoOf } from './errors';
import { displayPath } from './paths';

/**
 * The largest file lspq hands a server, in bytes (LSPQ_MAX_FILE_MB, default
 * 16). A 50 MB generated file took gopls 25 s and 4.6 GB for one refs, and
 * the daemon held its text twice over; past this it is refused in one line.
 */
export function maxFileBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.LSPQ_MAX_FILE_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 16) * 1_048_576;
}

/** The largest configuration file lspq reads (a tsconfig, package.json, Cargo.toml, .editorconfig, .lsp.json): none real comes near it. */
export const CONFIG_MAX_BYTES = 1_048_576;

/** What a file is read as: configuration (capped at 1 MB) or source (capped at LSPQ_MAX_FILE_MB, for the server and lexical scans). */
export type FileKind = 'configuration' | 'source';

const capOf = (kind: FileKind) => (kind === 'configuration' ? CONFIG_MAX_BYTES : maxFileBytes());

/** A size as a person reads it: KB under a megabyte, MB to a tenth above. */
export function sizeOf(bytes: number): string {
  return bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} KB` : `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

export function tooLarge(path: string, size: number): LspqError {
  return new LspqError(
    'usage',
    `${path} is ${sizeOf(size)}, past the ${sizeOf(maxFileBytes())} lspq hands a server; ask about a smaller file, or raise LSPQ_MAX_FILE_MB for the daemon`,
  );
}

/** A file read whole, or why it was not: absent (or a folder), or skipped (not a regular file, past its cap). */
export interface ReadOptions {
  /** false: a symbolic link is not followed (O_NOFOLLOW), and is skipped. */
  follow?: boolean;
  /** The caller says what it skipped itself (a file named on the command line is refused in its own words). */
  quiet?: boolean;
  /** A file past its cap is passed over unsaid (a search of a project's files looks only where a server would). */
  quietPastCap?: boolean;
}

export type FileRead = { read: true; bytes: Buffer; stats: Stats } | { read: false; skipped?: string; stats?: Stats };

/** What a file that is not regular is, in a person's words. */
function whatItIs(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

// O_NONBLOCK: an open of a FIFO with no writer returns at once instead of waiting for one.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * Reads `path` whole without ever blocking: opened with O_NONBLOCK (and
 * O_NOFOLLOW where `follow` is false: a link is then skipped), fstat'ed on
 * the descriptor, read only if it is a regular file within the cap of its
 * kind (checked before the read, and the read stops at the size it had).
 * A skipped file is noted for the question that read it (`skippedFiles`).
 */
export function readWorkspaceFile(path: string, kind: FileKind, options: ReadOptions = {}): FileRead {
  const skipped = (why: string, stats?: Stats): FileRead => {
    if (!options.quiet) skippedFiles.getStore()?.set(path, why);
    return { read: false, skipped: why, stats };
  };
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS | (options.follow === false ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    const code = errnoOf(err);
    // ENXIO: a socket cannot be opened; ELOOP: a link where none is followed.
    if (code === 'ENXIO') return skipped('not a regular file (a socket)');
    if (code === 'ELOOP' && options.follow === false) return skipped('a symbolic link, not followed here');
    return { read: false };
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { read: false, stats };
    if (!stats.isFile()) return skipped(`not a regular file (${whatItIs(stats)})`, stats);
    const cap = capOf(kind);
    if (stats.size > cap && options.quietPastCap) return { read: false, stats };
    if (stats.size > cap)
      return skipped(`${sizeOf(stats.size)}, past the ${sizeOf(cap)} lspq reads of a ${kind} file`, stats);
    const bytes = Buffer.allocUnsafe(stats.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break; // it shrank since the fstat: what is there
      at += n;
    }
    return { read: true, bytes: at === bytes.length ? bytes : bytes.subarray(0, at), stats };
  } catch {
    return { read: false };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether `path` is a regular file, judged on a descriptor opened without
 * blocking (a SCIP index, read whole or mapped by the caller, has no cap);
 * anything else is skipped and noted as readWorkspaceFile notes it.
 */
export function isRegularFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (err) {
    if (errnoOf(err) === 'ENXIO') skippedFiles.getStore()?.set(path, 'not a regular file (a socket)');
    return false;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() && !stats.isDirectory())
      skippedFiles.getStore()?.set(path, `not a regular file (${whatItIs(stats)})`);
    return stats.isFile();
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** A workspace file's text (UTF-8), or undefined where it is absent or skipped (see readWorkspaceFile). */
export function readWorkspaceText(path: string, kind: FileKind, options: ReadOptions = {}): string | undefined {
  const got = readWorkspaceFile(path, kind, options);
  return got.read ? got.bytes.toString('utf8') : undefined;
}

/** A workspace JSON file parsed, or undefined where it is absent, skipped or not JSON. */
export function readWorkspaceJson(path: string): unknown {
  const text = readWorkspaceText(path, 'configuration');
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The files a question skipped, by path, with why: the engine runs each
 * question inside it and says them (src/engine/dispatch.ts). Outside a
 * question (the daemon's own work) nothing is noted.
 */
export const skippedFiles = new AsyncLocalStorage<Skipped>();

/** A question's skipped files (path to why), and the folder it was asked from, which names them. */
export class Skipped extends Map<string, string> {
  constructor(readonly cwd: string) {
    super();
  }
}

/** The files skipped, as one line: `skipped tsconfig.json: not a regular file (a named pipe)`, paths as the caller names them. */
export function skippedLine(skips: Skipped): string | undefined {
  if (skips.size === 0) return undefined;
  return [...skips].map(([path, why]) => `skipped ${displayPath(path, skips.cwd)}: ${why}`).join('; ');
}

/**
 * A question that skipped a file of its workspace has no whole answer
 * (what the file says could change it): exit 3, naming each file once.
 */
export function skippedError(skips: Skipped, consequence: string): LspqError {
  const err = new LspqError(
    'incomplete',
    `${skippedLine(skips)}; ${consequence} (lspq reads only regular files of a workspace: replace it with one, or remove it)`,
  );
  skips.clear(); // named by the error: not said again beside it
  return err;
}
