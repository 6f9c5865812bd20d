/**
 * One file lspq replaces while other programs may be writing it.
 *
 * A check and a rename are two steps, and a program that opened the file
 * before the rename (an editor's save, a formatter, `echo >>`) writes into
 * the file lspq replaced, not into lspq's. So the original is kept three
 * ways: open (to read what reached it at any moment), and hard-linked
 * beside itself (so it can be put back by a rename, with every write that
 * reached it, and any write still to come through the other program's open
 * descriptor); lspq's own new file is kept open too, so what other
 * programs append to it while it is in place is carried back with it.
 */
import {
  appendFileSync,
  chmodSync,
  closeSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

let temporaries = 0;

/** The file a path writes to: a symlink's target (the link stays a link). */
export function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A name beside `real` for lspq's own short-lived files. */
function beside(real: string, what: string): string {
  return join(dirname(real), `.${basename(real)}.lspq-${process.pid}-${++temporaries}.${what}`);
}

/** The whole text behind a descriptor, from its start. */
function readFd(fd: number): string {
  const size = fstatSync(fd).size;
  const bytes = Buffer.alloc(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n <= 0) break;
    at += n;
  }
  return bytes.subarray(0, at).toString('utf8');
}

/** `text` into `path` whole: a temporary file beside it, renamed over it. Returns the new file, open for reading. */
export function writeWhole(path: string, text: string, mode: number | undefined): number {
  const real = realOf(path);
  mkdirSync(dirname(real), { recursive: true });
  const temporary = beside(real, 'tmp');
  try {
    writeFileSync(temporary, text, { flag: 'wx', mode: 0o600 });
    chmodSync(temporary, mode ?? 0o644);
    const fd = openSync(temporary, 'r');
    renameSync(temporary, real);
    return fd;
  } catch (err) {
    try {
      unlinkSync(temporary);
    } catch {}
    throw err;
  }
}

/** `text` into `path` whole, as writeWhole, keeping nothing open. */
export function writeText(path: string, text: string, mode: number | undefined): void {
  closeSync(writeWhole(path, text, mode));
}

/** Why a file could not be put back without losing another program's write. */
export class LeftAsIs extends Error {}

export class GuardedFile {
  private readonly real: string;
  /** A hard link to the original, while lspq's file is in its place. */
  private backup: string | undefined;
  /** lspq's new file, open, and the text it was written with. */
  private ours: { fd: number; text: string } | undefined;

  private constructor(
    readonly path: string,
    private readonly original: number,
    readonly before: string,
  ) {
    this.real = realOf(path);
  }

  /** The file, opened; undefined when it cannot be read. */
  static open(path: string, before: string): GuardedFile | undefined {
    try {
      return new GuardedFile(path, openSync(realOf(path), 'r'), before);
    } catch {
      return undefined;
    }
  }

  /** The original still holds the text the edit was planned against. */
  unchanged(): boolean {
    return readFd(this.original) === this.before;
  }

  /** lspq's text in place of the original, which stays linked beside it until `close`. */
  replace(after: string, mode: number | undefined): void {
    const link = beside(this.real, 'orig');
    try {
      linkSync(this.real, link);
      this.backup = link;
    } catch {
      // No hard links here (some file systems): putting back falls to rewriting the text.
    }
    this.ours = { fd: writeWhole(this.path, after, mode), text: after };
  }

  /**
   * The original back in place, with every write that reached it, and with
   * what other programs appended to lspq's file while it was in place.
   * Throws LeftAsIs where that cannot be done without losing a write.
   */
  putBack(mode: number | undefined): void {
    const ours = this.ours;
    if (!ours) return;
    this.ours = undefined;
    try {
      if (this.backup) {
        renameSync(this.backup, this.real);
        this.backup = undefined;
      } else {
        const now = readFd(ours.fd);
        if (now !== ours.text) throw new LeftAsIs(this.path);
        writeText(this.path, readFd(this.original), mode);
        return;
      }
      const now = readFd(ours.fd);
      if (now === ours.text) return;
      // Appended to lspq's file while it was in place: carried over to the original.
      if (now.startsWith(ours.text)) appendFileSync(this.real, now.slice(ours.text.length));
      else throw new LeftAsIs(this.path);
    } finally {
      closeSync(ours.fd);
    }
  }

  close(): void {
    if (this.ours) closeSync(this.ours.fd);
    this.ours = undefined;
    closeSync(this.original);
    if (this.backup) {
      try {
        unlinkSync(this.backup);
      } catch {}
    }
    this.backup = undefined;
  }
}
