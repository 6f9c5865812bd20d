/**
 * Watching folders, one at a time (not recursively), with the events read
 * when the daemon asks for them. On Linux the kernel's queue is read
 * directly (inotify.ts), so a read holds every change made before it.
 * Elsewhere fs.watch delivers events on later turns of the event loop:
 * a read holds what has arrived so far (docs/platforms.md says so).
 */
import { type FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';
import { IN_DELETE, IN_DELETE_SELF, IN_IGNORED, IN_MOVE_SELF, IN_MOVED_FROM, IN_Q_OVERFLOW, Inotify } from './inotify';
import { errnoOf } from '../common/errors';

/**
 * Something happened to `name` in the watched folder `dir`: `left` when it
 * was deleted or moved away (else created, moved in, or written; an event
 * that cannot tell says both). `name` empty: the watch of `dir` itself
 * ended (the folder was deleted). `overflow`: events were lost, the
 * folders must be looked at again.
 */
export type FolderEvent = { dir: string; name: string; left: boolean; arrived: boolean } | { overflow: true };

export interface FolderWatch {
  /** True where a read holds every event of a change made before it (inotify). */
  readonly immediate: boolean;
  /** Starts watching `dir`; 'limit' when the system allows no more watches. */
  add(dir: string): 'ok' | 'limit' | 'gone';
  remove(dir: string): void;
  /** The events since the last read, in order. */
  read(): FolderEvent[];
  close(): void;
}

class InotifyWatch implements FolderWatch {
  readonly immediate = true;
  private readonly byWd = new Map<number, string>();
  private readonly byDir = new Map<string, number>();

  constructor(private readonly inotify: Inotify) {}

  add(dir: string): 'ok' | 'limit' | 'gone' {
    const wd = this.inotify.add(dir);
    if (typeof wd !== 'number') return wd;
    this.byWd.set(wd, dir);
    this.byDir.set(dir, wd);
    return 'ok';
  }

  remove(dir: string): void {
    const wd = this.byDir.get(dir);
    if (wd === undefined) return;
    this.byDir.delete(dir);
    this.byWd.delete(wd);
    this.inotify.remove(wd);
  }

  read(): FolderEvent[] {
    const out: FolderEvent[] = [];
    for (const e of this.inotify.drain()) {
      if (e.mask & IN_Q_OVERFLOW) {
        out.push({ overflow: true });
        continue;
      }
      const dir = this.byWd.get(e.wd);
      if (dir === undefined) continue;
      if (e.mask & IN_IGNORED) {
        // The kernel ended the watch (a watch lspq removed is no longer known): the folder was deleted.
        if (this.byDir.get(dir) === e.wd) this.byDir.delete(dir);
        this.byWd.delete(e.wd);
        out.push({ dir, name: '', left: true, arrived: false });
        continue;
      }
      // The folder itself went away: its parent's watch reports it by name too.
      if (e.mask & (IN_DELETE_SELF | IN_MOVE_SELF) || e.name === '') continue;
      const left = (e.mask & (IN_DELETE | IN_MOVED_FROM)) !== 0;
      out.push({ dir, name: e.name, left, arrived: !left });
    }
    return out;
  }

  close(): void {
    this.inotify.close();
    this.byWd.clear();
    this.byDir.clear();
  }
}

class NodeWatch implements FolderWatch {
  readonly immediate = false;
  private readonly watchers = new Map<string, FSWatcher>();
  private queue: FolderEvent[] = [];

  add(dir: string): 'ok' | 'limit' | 'gone' {
    try {
      const watcher = watch(dir, (event, file) => {
        if (!file) return;
        const name = String(file);
        // 'rename' is a creation, a deletion or a move: which, only a look at the path tells.
        this.queue.push({ dir, name, left: event === 'rename', arrived: true });
      });
      watcher.on('error', () => {
        this.remove(dir);
        this.queue.push({ dir, name: '', left: true, arrived: false });
      });
      this.watchers.set(dir, watcher);
      return 'ok';
    } catch (err) {
      return errnoOf(err) === 'ENOSPC' ? 'limit' : 'gone';
    }
  }

  remove(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  read(): FolderEvent[] {
    const out = this.queue;
    this.queue = [];
    return out;
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}

/** inotify where it can be had, else fs.watch. */
export function folderWatch(): FolderWatch {
  const inotify = Inotify.open();
  const watch = inotify ? new InotifyWatch(inotify) : new NodeWatch();
  // The tests' stand-in for a small fs.inotify.max_user_watches: this many folders, then the limit.
  const limit = Number(process.env.LSPQ_TEST_WATCH_LIMIT);
  return Number.isSafeInteger(limit) && limit > 0 ? limited(watch, limit) : watch;
}

/** A watch that refuses folders past `limit`, as the kernel does past the user's watch limit. */
function limited(watch: FolderWatch, limit: number): FolderWatch {
  let count = 0;
  return {
    immediate: watch.immediate,
    add: (dir) => {
      if (count >= limit) return 'limit';
      count++;
      return watch.add(dir);
    },
    remove: (dir) => watch.remove(dir),
    read: () => watch.read(),
    close: () => watch.close(),
  };
}

/** A watched folder's entry as a path. */
export const entryPath = (e: { dir: string; name: string }) => join(e.dir, e.name);
