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
 *
 * Bytes throughout: a file that is not UTF-8 keeps every byte the edit
 * does not touch. The names of what lspq makes beside the file come from
 * the edit's journal (journal.ts), which removes them after a crash.
 */
import { realOf } from '../common/real-path';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { crashPoint } from './fault';
import { linkBeside } from './journal';

/** What lspq makes beside a file while it writes it. */
export interface TemporaryNames {
  temporary: string;
  backup: string;
}

/** The whole content behind a descriptor, from its start. */
function readFd(fd: number): Uint8Array {
  const size = fstatSync(fd).size;
  const bytes = Buffer.alloc(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n <= 0) break;
    at += n;
  }
  return bytes.subarray(0, at);
}

const equal = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

/** `bytes` into `path` whole: the temporary file, renamed over it. Returns the new file, open for reading. */
export function writeWhole(path: string, bytes: Uint8Array, mode: number | undefined, temporary: string): number {
  const real = realOf(path);
  mkdirSync(dirname(real), { recursive: true });
  try {
    const out = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(out, bytes);
    } finally {
      closeSync(out);
    }
    chmodSync(temporary, mode ?? 0o644);
    crashPoint('temporary file written');
    const fd = openSync(temporary, 'r');
    renameSync(temporary, real);
    crashPoint('file renamed into place');
    return fd;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** `bytes` into `path` whole, as writeWhole, keeping nothing open. */
export function writeBytes(path: string, bytes: Uint8Array, mode: number | undefined, temporary: string): void {
  closeSync(writeWhole(path, bytes, mode, temporary));
}

/** Why a file could not be put back without losing another program's write. */
export class WrittenMeanwhile extends Error {}

export class GuardedFile {
  private readonly real: string;
  /** Set while the original is linked beside lspq's file. */
  private linked = false;
  /** lspq's new file, open, and the bytes it was written with. */
  private ours: { fd: number; bytes: Uint8Array } | undefined;

  private constructor(
    readonly path: string,
    private readonly original: number,
    readonly before: Uint8Array,
    private readonly beside: TemporaryNames,
  ) {
    this.real = realOf(path);
  }

  /** The file, opened; undefined when it cannot be read. */
  static open(path: string, before: Uint8Array, beside: TemporaryNames): GuardedFile | undefined {
    try {
      // Without blocking: a FIFO put where the file was is opened at once, and its bytes are not the original's.
      return new GuardedFile(path, openSync(realOf(path), constants.O_RDONLY | constants.O_NONBLOCK), before, beside);
    } catch {
      return undefined;
    }
  }

  /** The original still holds the bytes the edit was planned against. */
  unchanged(): boolean {
    return equal(readFd(this.original), this.before);
  }

  /** lspq's bytes in place of the original, which stays linked beside it until `close`. */
  replace(after: Uint8Array, mode: number | undefined): void {
    // No hard links here (some file systems): putting back falls to rewriting the bytes.
    this.linked = linkBeside(this.real, this.beside.backup);
    crashPoint('original linked beside');
    this.ours = { fd: writeWhole(this.path, after, mode, this.beside.temporary), bytes: after };
  }

  /**
   * The original back in place, with every write that reached it, and with
   * what other programs appended to lspq's file while it was in place.
   * Throws WrittenMeanwhile where that cannot be done without losing a write.
   */
  putBack(mode: number | undefined): void {
    const ours = this.ours;
    if (!ours) return;
    this.ours = undefined;
    try {
      if (this.linked) {
        renameSync(this.beside.backup, this.real);
        this.linked = false;
      } else {
        if (!equal(readFd(ours.fd), ours.bytes)) throw new WrittenMeanwhile(this.path);
        writeBytes(this.path, readFd(this.original), mode, this.beside.temporary);
        return;
      }
      const now = readFd(ours.fd);
      if (equal(now, ours.bytes)) return;
      // Appended to lspq's file while it was in place: carried over to the original.
      const head = now.subarray(0, ours.bytes.length);
      if (now.length > ours.bytes.length && equal(head, ours.bytes))
        appendFileSync(this.real, now.subarray(ours.bytes.length));
      else throw new WrittenMeanwhile(this.path);
    } finally {
      closeSync(ours.fd);
    }
  }

  close(): void {
    if (this.ours) closeSync(this.ours.fd);
    this.ours = undefined;
    closeSync(this.original);
    if (this.linked) {
      rmSync(this.beside.backup, { force: true });
      crashPoint('backup removed');
    }
    this.linked = false;
  }
}
