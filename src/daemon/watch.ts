/**
 * The daemon's view of the disk under each root a server runs for: every
 * file created, written, deleted or moved, recorded in order, so that each
 * server is told, before its next request, exactly what changed since it
 * last heard (lsp/file-events.ts). gopls and pyright see no change to an
 * unopened file any other way, and the TypeScript servers' own watchers lag
 * a question asked right after a change.
 *
 * Complete by construction where the kernel's queue can be read directly
 * (folder-watch.ts): each question first reads every event queued so far.
 * A root's folders are watched before its server starts, so nothing
 * changed after the server read the disk goes unseen.
 *
 * Each change is told as the server would see it, judged by whether the
 * file existed when the server last heard and exists now: `sed -i` and an
 * editor's atomic save replace a file by a rename, which is a change to the
 * server, not a creation (told "created", TypeScript 7 kept the old text);
 * a temporary file made and removed in between is nothing at all.
 */
import { isWithin as under } from '../common/paths';
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DiskChange, DiskView } from '../lsp/file-events';
import { entryPath, type FolderWatch, folderWatch } from './folder-watch';
import { neverSources } from '../project/folders';
import { nextTurn } from '../common/turns';

interface Change {
  /** The sequence number of its latest event. */
  seq: number;
  /** Whether it existed before its first recorded event. */
  initial: boolean;
  /** Each time it came to exist or ceased to, in order. */
  flips: [seq: number, exists: boolean][];
}

interface WatchedRoot {
  folders: Set<string>;
  /** The root folder's device and inode when its watch began. */
  identity?: string;
  /** The mark once its folders were all watched: changes after it are all recorded. */
  since?: number;
}

/** Changes kept; past this many the oldest are forgotten, and a server that last heard before them is told everything. */
const CHANGES_MAX = 50_000;
/** How often the queue is read between questions, so the kernel's (16,384 events by default) never overflows. */
export const DRAIN_MS = 50;
/** Folders walked between yields to other work: 2-3 ms of the daemon's thread (200 held it 10-15 ms). */
const WALK_CHUNK = 32;

export class Watchers implements DiskView {
  private readonly backend: FolderWatch;
  /** Watched folder → the files in it (names) as last seen. */
  private readonly folders = new Map<string, Set<string>>();
  /** How many roots cover each watched folder. */
  private readonly cover = new Map<string, number>();
  private readonly roots = new Map<string, WatchedRoot>();
  private readonly walking = new Map<string, Promise<void>>();
  private readonly changes = new Map<string, Change>();
  /** Roots whose own folder went away, with the mark it went at. */
  private readonly gone = new Map<string, number>();
  private log: { seq: number; path: string }[] = [];
  private seq = 0;
  /** Changes up to this sequence number may have been forgotten (a cut log, lost events). */
  private forgotten = 0;
  private drainTimer: ReturnType<typeof setInterval> | undefined;
  private warnedLimit = false;
  /**
   * Folders past the system's watch limit: each file's time and size as last
   * seen, looked at again before every question (markNow), so a change there
   * is told as surely as a watched one, only later.
   */
  private readonly polled = new Map<string, Map<string, string>>();

  constructor(
    private readonly say: (line: string) => void,
    backend?: FolderWatch,
  ) {
    this.backend = backend ?? folderWatch();
  }

  /** The sequence number after every change made so far: a server started now is told what changes after it. */
  markNow(): number {
    this.checkRoots();
    this.drain();
    this.poll();
    return this.seq;
  }

  /** Looks at every folder the system would not watch: what was created, changed or deleted there since. */
  private poll(): void {
    for (const [dir, seen] of [...this.polled]) {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        if (this.folders.has(dir)) this.forgetFolder(dir);
        continue;
      }
      const now = new Set<string>();
      for (const e of entries) {
        const path = join(dir, e.name);
        now.add(e.name);
        if (e.isDirectory()) {
          if (!this.folders.has(path))
            for (const [root, state] of this.roots)
              if (under(path, root)) void this.walk(root, state, path, true, false);
          continue;
        }
        const stamp = stampOf(path);
        if (seen.get(e.name) !== stamp) {
          if (seen.has(e.name) || stamp !== undefined) this.saw(path, stamp !== undefined);
          if (stamp === undefined) seen.delete(e.name);
          else seen.set(e.name, stamp);
        }
      }
      for (const name of [...seen.keys()])
        if (!now.has(name)) {
          seen.delete(name);
          this.saw(join(dir, name), false);
        }
    }
  }

  /** Every event of a change made before this call is recorded (where the platform allows). */
  get immediate(): boolean {
    return this.backend.immediate;
  }

  /**
   * Watches every folder of `root`'s sources; resolves once they all are,
   * with the mark to tell a server started now of changes from. Called
   * before a server for the root starts.
   */
  async watch(root: string): Promise<number> {
    if (!this.roots.has(root)) {
      const identity = identityOf(root);
      const state: WatchedRoot = { folders: new Set(), ...(identity ? { identity } : {}) };
      this.roots.set(root, state);
      this.walking.set(root, this.walk(root, state, root, false, true));
      this.startDraining();
    }
    await this.walking.get(root);
    const mark = this.markNow();
    const state = this.roots.get(root);
    if (state && state.since === undefined) state.since = mark;
    return mark;
  }

  /** The mark since which every change under `root` is recorded; undefined while it is not watched whole. */
  watchedSince(root: string): number | undefined {
    return this.roots.get(root)?.since;
  }

  /**
   * What changed under `root` since mark `since`, as a server that last
   * heard then sees it; undefined when that is no longer known (events were
   * lost, or too many changes since): the server must read everything again.
   */
  changesSince(root: string, since: number): DiskChange[] | undefined {
    if (since < this.forgotten) return undefined;
    const out: DiskChange[] = [];
    const seen = new Set<string>();
    for (const { path } of this.log.slice(this.firstAfter(since))) {
      if (seen.has(path) || !under(path, root)) continue;
      seen.add(path);
      const change = this.changes.get(path);
      if (!change) continue;
      const before = existedAt(change, since);
      const now = this.exists(path);
      if (before && now) out.push({ path, kind: 'changed' });
      else if (now) out.push({ path, kind: 'created' });
      else if (before) out.push({ path, kind: 'deleted' });
    }
    return out;
  }

  /** Every file under `root` as last seen. */
  filesUnder(root: string): string[] {
    const out: string[] = [];
    for (const [dir, names] of this.folders) if (under(dir, root)) for (const n of names) out.push(join(dir, n));
    return out;
  }

  /** The index of the first log entry after `since` (the log is in sequence order). */
  private firstAfter(since: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      // biome-ignore lint/style/noNonNullAssertion: lo <= mid < hi <= the log's length
      if (this.log[mid]!.seq <= since) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private exists(path: string): boolean {
    return this.folders.get(dirname(path))?.has(basename(path)) ?? false;
  }

  /** Reads every event queued so far and records what it changed. */
  drain(): void {
    const events = this.backend.read();
    if (events.length === 0) return;
    const touched = new Set<string>();
    for (const e of events) {
      if ('overflow' in e) {
        this.lostEvents();
        continue;
      }
      const path = entryPath(e);
      // A folder that left is forgotten at once, in order: another may arrive at its name.
      if (e.left && this.folders.has(path)) this.forgetFolder(path);
      // A root's watch ended: the kernel may give its inode number to the folder made in its place.
      if (e.name === '' && this.roots.has(path)) this.rootGone(path);
      touched.add(path);
    }
    for (const path of touched) this.look(path);
  }

  /** Looks at a path an event named and records what it is now. */
  private look(path: string): void {
    let kind: 'folder' | 'file' | 'none' = 'none';
    try {
      kind = lstatSync(path).isDirectory() ? 'folder' : 'file';
    } catch {}
    if (kind === 'folder') {
      if (this.folders.has(path) || !this.folders.has(dirname(path))) return;
      // A folder created or moved in: watched too, and what it holds is new.
      for (const [root, state] of this.roots) if (under(path, root)) void this.walk(root, state, path, true, false);
      return;
    }
    if (this.folders.has(path)) this.forgetFolder(path);
    this.saw(path, kind === 'file');
  }

  /** A file is there or not: recorded when that or its content may have changed. */
  private saw(path: string, exists: boolean): void {
    const names = this.folders.get(dirname(path));
    if (!names) return;
    const was = names.has(basename(path));
    // A temporary file made and removed between two looks: nothing to tell.
    if (!was && !exists) return;
    if (exists) names.add(basename(path));
    else names.delete(basename(path));
    const seq = ++this.seq;
    const change = this.changes.get(path) ?? { seq, initial: was, flips: [] };
    if (was !== exists) change.flips.push([seq, exists]);
    change.seq = seq;
    this.changes.set(path, change);
    this.log.push({ seq, path });
    if (this.log.length > 2 * CHANGES_MAX) this.cutLog();
  }

  /** Keeps the newest changes; a server that heard last before them will be told everything. */
  private cutLog(): void {
    const dropped = this.log.splice(0, this.log.length - CHANGES_MAX);
    this.forgotten = dropped.at(-1)?.seq ?? this.forgotten;
    for (const [path, change] of this.changes) if (change.seq <= this.forgotten) this.changes.delete(path);
  }

  /** The kernel dropped events: every watched folder is looked at again, and servers are told everything. */
  private lostEvents(): void {
    this.say('file events were lost (the queue overflowed); servers will read their projects again');
    this.forgotten = ++this.seq;
    for (const [dir, names] of [...this.folders]) {
      let entries: Dirent[] = [];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {}
      const now = new Set(entries.map((e) => e.name));
      for (const name of [...names]) if (!now.has(name)) this.look(join(dir, name));
      for (const e of entries) if (!names.has(e.name)) this.look(join(dir, e.name));
    }
  }

  /**
   * Roots whose folder is no longer the one watched (deleted, perhaps made
   * again at once, or moved away): no watch of a parent would see one come
   * back, and the kernel ends a deleted folder's watch only once no process
   * (a server's working folder) holds it, so its identity is compared too.
   */
  private checkRoots(): void {
    for (const [root, state] of [...this.roots])
      if (state.identity !== undefined && identityOf(root) !== state.identity) this.rootGone(root);
  }

  /**
   * A root's folder went: forgotten whole, watched afresh when a server next
   * starts for it. Inside another root, that root's watch of the parent
   * tells the folder's going and coming, and its files are left to it.
   */
  private rootGone(root: string): void {
    const inside = [...this.roots.keys()].some((other) => other !== root && under(root, other));
    const state = this.roots.get(root);
    if (!inside && this.folders.has(root)) this.forgetFolder(root);
    else if (state) this.release(state);
    this.roots.delete(root);
    this.walking.delete(root);
    this.gone.set(root, ++this.seq);
    this.say(`${root} went away on disk; its servers will start again on their next question`);
  }

  /** Whether `root`'s own folder went away after mark `since`: a server started before knows another tree. */
  goneSince(root: string, since: number): boolean {
    return (this.gone.get(root) ?? 0) > since;
  }

  /** A folder went away: its files are gone, it and the folders under it are no longer watched. */
  private forgetFolder(top: string): void {
    for (const dir of [...this.folders.keys()]) {
      if (!under(dir, top)) continue;
      for (const name of [...(this.folders.get(dir) ?? [])]) this.saw(join(dir, name), false);
      this.unwatch(dir);
    }
  }

  private unwatch(dir: string): void {
    if (!this.polled.delete(dir)) this.backend.remove(dir);
    this.folders.delete(dir);
    this.cover.delete(dir);
    for (const state of this.roots.values()) state.folders.delete(dir);
  }

  /**
   * Watches `top` and the folders under it, a few hundred at a time between
   * other work. `created`: the folder is new, so its files are changes too
   * (a checkout that adds a folder of sources).
   */
  private async walk(root: string, state: WatchedRoot, top: string, created: boolean, yields: boolean): Promise<void> {
    const queue = [top];
    let count = 0;
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      if (dir !== root && neverSources(dir)) continue;
      if (!state.folders.has(dir)) {
        if (!this.folders.has(dir)) {
          const added = this.backend.add(dir);
          if (added === 'gone') continue;
          if (added === 'limit') {
            if (!this.warnedLimit)
              this.say(
                `cannot watch ${dir}: the system's watch limit is reached (fs.inotify.max_user_watches); folders past it are checked by their files' times before each question instead (slower); to raise it: sudo sysctl fs.inotify.max_user_watches=524288`,
              );
            this.warnedLimit = true;
            this.polled.set(dir, new Map());
          }
          this.folders.set(dir, new Set());
        }
        state.folders.add(dir);
        this.cover.set(dir, (this.cover.get(dir) ?? 0) + 1);
      }
      let entries: Dirent[] = [];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {}
      // biome-ignore lint/style/noNonNullAssertion: a folder of a root's is in this.folders (added just above if new)
      const names = this.folders.get(dir)!;
      const polled = this.polled.get(dir);
      for (const e of entries) {
        if (e.isDirectory()) queue.push(join(dir, e.name));
        else if (created) this.saw(join(dir, e.name), true);
        else names.add(e.name);
        const stamp = polled && !e.isDirectory() ? stampOf(join(dir, e.name)) : undefined;
        if (polled && stamp !== undefined) polled.set(e.name, stamp);
      }
      if (yields && ++count % WALK_CHUNK === 0) await nextTurn();
    }
  }

  private startDraining(): void {
    if (this.drainTimer) return;
    this.drainTimer = setInterval(() => this.drain(), DRAIN_MS);
    this.drainTimer.unref?.();
  }

  /** A root's folders no longer covered by it: unwatched where no other root covers them. */
  private release(state: WatchedRoot): void {
    for (const dir of state.folders) {
      const left = (this.cover.get(dir) ?? 1) - 1;
      if (left > 0) this.cover.set(dir, left);
      else this.unwatch(dir);
    }
  }

  /** Stops watching roots no server runs for any more: the daemon's housekeeping calls it. */
  prune(liveRoots: ReadonlySet<string>): void {
    for (const [root, state] of this.roots) {
      if (liveRoots.has(root)) continue;
      this.release(state);
      this.roots.delete(root);
      this.walking.delete(root);
    }
    if (this.roots.size === 0 && this.drainTimer) {
      clearInterval(this.drainTimer);
      this.drainTimer = undefined;
    }
  }

  close(): void {
    if (this.drainTimer) clearInterval(this.drainTimer);
    this.drainTimer = undefined;
    this.backend.close();
    this.folders.clear();
    this.roots.clear();
  }
}

/** A file's modification time and size, to tell a change by; undefined when it is gone. */
function stampOf(path: string): string | undefined {
  try {
    const st = lstatSync(path);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** Which folder is at `path` now (device and inode); undefined when none is. */
function identityOf(path: string): string | undefined {
  try {
    const st = lstatSync(path);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a file existed at mark `seq`, from its first state and the times it came and went. */
function existedAt(change: Change, seq: number): boolean {
  let exists = change.initial;
  for (const [at, now] of change.flips) {
    if (at > seq) break;
    exists = now;
  }
  return exists;
}
