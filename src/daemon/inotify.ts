/**
 * Linux's inotify, called directly (bun:ffi), so the daemon can read every
 * file event queued so far at the moment a question arrives. The kernel
 * queues an event before the write, rename or unlink that caused it
 * returns, so a change made before the question was sent is in the queue
 * when the question is read. Node's fs.watch delivers the same events on a
 * later turn of the event loop, or later still from a watcher thread: a
 * question right after a `sed -i` over 150 files saw some of them.
 */
import { dlopen, FFIType, ptr, read as readPointer } from 'bun:ffi';

export const IN_MODIFY = 0x2;
export const IN_CLOSE_WRITE = 0x8;
export const IN_MOVED_FROM = 0x40;
export const IN_MOVED_TO = 0x80;
export const IN_CREATE = 0x100;
export const IN_DELETE = 0x200;
export const IN_DELETE_SELF = 0x400;
export const IN_MOVE_SELF = 0x800;
export const IN_Q_OVERFLOW = 0x4000;
export const IN_IGNORED = 0x8000;
export const IN_ONLYDIR = 0x1000000;
export const IN_DONT_FOLLOW = 0x2000000;
const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;
const ENOSPC = 28;

/** What a folder is watched for: its entries created, written, deleted or moved, and itself going away. */
export const FOLDER_MASK =
  IN_MODIFY |
  IN_CLOSE_WRITE |
  IN_MOVED_FROM |
  IN_MOVED_TO |
  IN_CREATE |
  IN_DELETE |
  IN_DELETE_SELF |
  IN_MOVE_SELF |
  IN_ONLYDIR |
  IN_DONT_FOLLOW;

export interface InotifyEvent {
  wd: number;
  mask: number;
  /** The entry's name in the watched folder; empty for an event of the folder itself. */
  name: string;
}

/** The header of struct inotify_event: wd, mask, cookie, len (four 32-bit fields). */
const HEADER_BYTES = 16;
const utf8 = new TextDecoder();

/** The events in `bytes[0, length)` as the kernel lays them out: a header, then a name padded with NULs. */
export function parseInotify(bytes: Uint8Array, length: number): InotifyEvent[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  const events: InotifyEvent[] = [];
  for (let at = 0; at + HEADER_BYTES <= length; ) {
    const wd = view.getInt32(at, true);
    const mask = view.getUint32(at + 4, true);
    const nameBytes = view.getUint32(at + 12, true);
    const start = at + HEADER_BYTES;
    let end = start;
    while (end < start + nameBytes && bytes[end] !== 0) end++;
    events.push({ wd, mask, name: utf8.decode(bytes.subarray(start, end)) });
    at = start + nameBytes;
  }
  return events;
}

type Libc = ReturnType<typeof openLibc>;

function openLibc() {
  return dlopen('libc.so.6', {
    inotify_init1: { args: [FFIType.i32], returns: FFIType.i32 },
    inotify_add_watch: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    inotify_rm_watch: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  }).symbols;
}

/** Room for a few hundred events a read; the queue is read until empty. */
const READ_BYTES = 64 * 1024;

/** One inotify instance: folders added and removed, its queue read without blocking. */
export class Inotify {
  private readonly buffer = new Uint8Array(READ_BYTES);

  private constructor(
    private readonly libc: Libc,
    private readonly fd: number,
  ) {}

  /** An instance, or undefined where inotify cannot be had (not Linux, no glibc, the instance limit). */
  static open(): Inotify | undefined {
    if (process.platform !== 'linux') return undefined;
    let libc: Libc;
    try {
      libc = openLibc();
    } catch {
      return undefined;
    }
    const fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    return fd >= 0 ? new Inotify(libc, fd) : undefined;
  }

  private errno(): number {
    const at = this.libc.__errno_location();
    return at ? readPointer.i32(at) : 0;
  }

  /** The watch descriptor, 'limit' when the user's watch limit is reached, 'gone' when the folder cannot be watched. */
  add(dir: string): number | 'limit' | 'gone' {
    const path = Buffer.from(`${dir}\0`);
    const wd = this.libc.inotify_add_watch(this.fd, ptr(path), FOLDER_MASK);
    if (wd >= 0) return wd;
    return this.errno() === ENOSPC ? 'limit' : 'gone';
  }

  remove(wd: number): void {
    this.libc.inotify_rm_watch(this.fd, wd);
  }

  /** Every event queued so far; returns at once when there is none. */
  drain(): InotifyEvent[] {
    const events: InotifyEvent[] = [];
    for (;;) {
      const n = Number(this.libc.read(this.fd, ptr(this.buffer), READ_BYTES));
      // 0 or -1 (EAGAIN: nothing queued): the queue is empty.
      if (n <= 0) return events;
      events.push(...parseInotify(this.buffer, n));
    }
  }

  close(): void {
    this.libc.close(this.fd);
  }
}
