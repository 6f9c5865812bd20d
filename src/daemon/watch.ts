/**
 * The daemon's watch of each root: files changed on disk (edited by other
 * programs, created, deleted, switched by git) are recorded as they happen
 * and told to each server before its next request (lsp/file-events.ts).
 * gopls and pyright see no change to an unopened file any other way.
 *
 * Each folder is watched on its own, found by a walk that leaves out what
 * is not the project's sources (node_modules, .git, virtual environments,
 * caches, cargo's target) and that runs beside the first answer, not before
 * it: a recursive watch of a root with node_modules walked every folder
 * first (lspq's own checkout: 420 ms before its first answer).
 */
import { existsSync, type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import { tellServer } from '../lsp/file-events';
import type { Session } from '../lsp/manager';

interface RootWatch {
  /** One watcher per folder of the root's sources. */
  watchers: Map<string, FSWatcher>;
  closed: boolean;
  /** path → sequence number of its latest change, and of its latest creation, deletion or rename. */
  changes: Map<string, { seq: number; renamedSeq: number }>;
  seq: number;
}

/** Recorded changes beyond this many are forgotten oldest first: a server asked after that long a gap is told what is left. */
const CHANGES_MAX = 10_000;

const IGNORED = /(^|\/)(\.git|node_modules\/\.cache)(\/|$)/;

/** Folders that are not the project's sources: never walked or watched. */
const SKIPPED = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.cache',
  '.lspq',
]);

/** More folders than this under one root are not watched (the system's watch limit is shared). */
const FOLDERS_MAX = 20_000;

/** A folder the walk leaves out: by name, a virtual environment, or cargo's build output. */
function skipped(dir: string): boolean {
  const name = basename(dir);
  if (SKIPPED.has(name)) return true;
  if (existsSync(join(dir, 'pyvenv.cfg'))) return true;
  return name === 'target' && existsSync(join(dir, '..', 'Cargo.toml'));
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

export class Watchers {
  private readonly roots = new Map<string, RootWatch>();
  private readonly delivered = new WeakMap<Session, number>();

  constructor(private readonly log: (line: string) => void) {}

  private watchRoot(root: string): RootWatch {
    const state: RootWatch = { watchers: new Map(), closed: false, changes: new Map(), seq: 0 };
    this.roots.set(root, state);
    // Beside the first answer: the server just read the disk itself.
    void this.walk(state, root, false);
    return state;
  }

  private record(state: RootWatch, path: string, renamed: boolean): void {
    const seq = ++state.seq;
    const renamedSeq = renamed ? seq : (state.changes.get(path)?.renamedSeq ?? 0);
    // Re-inserted so the map stays in order of the latest change, and the oldest go first.
    state.changes.delete(path);
    state.changes.set(path, { seq, renamedSeq });
    if (state.changes.size > CHANGES_MAX) state.changes.delete(state.changes.keys().next().value!);
  }

  /**
   * Watches `top` and the folders under it, a few hundred at a time between
   * other work. `created`: the folder is new, so the files found in it are
   * changes too (a checkout that adds a folder of sources).
   */
  private async walk(state: RootWatch, top: string, created: boolean): Promise<void> {
    const queue = [top];
    let since = 0;
    while (queue.length > 0 && !state.closed) {
      const dir = queue.shift()!;
      if (state.watchers.has(dir) || skipped(dir)) continue;
      if (state.watchers.size >= FOLDERS_MAX) {
        this.log(`watching ${top}: more than ${FOLDERS_MAX} folders; the rest are not watched`);
        return;
      }
      this.watchFolder(state, dir);
      let entries: import('node:fs').Dirent[] = [];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {}
      for (const e of entries) {
        if (e.isDirectory()) queue.push(join(dir, e.name));
        else if (created) this.record(state, join(dir, e.name), true);
      }
      if (++since % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private watchFolder(state: RootWatch, dir: string): void {
    try {
      const watcher = watch(dir, (event, file) => {
        if (!file) return;
        const path = join(dir, String(file));
        if (IGNORED.test(path)) return;
        this.record(state, path, event === 'rename');
        // A folder created (or moved in) is watched too, and what it holds is new.
        if (event === 'rename' && !state.watchers.has(path) && isFolder(path)) void this.walk(state, path, true);
      });
      watcher.on('error', () => {
        // The folder went away: its parent's watcher reported that.
        watcher.close();
        state.watchers.delete(dir);
      });
      state.watchers.set(dir, watcher);
    } catch (err) {
      if (state.watchers.size === 0)
        this.log(`cannot watch ${dir}: ${(err as Error).message}; open documents are still re-synced`);
    }
  }

  /**
   * Tells the session's server of every change under its root since its
   * last request: as workspace/didChangeWatchedFiles for the globs it
   * registered, and by opening files created since (a server's own watcher
   * lags the question: a new file calling a function was missing from
   * TypeScript's and pyright's references).
   */
  async flush(session: Session): Promise<void> {
    const root = session.client.root;
    const state = this.roots.get(root) ?? this.watchRoot(root);
    const since = this.delivered.get(session);
    this.delivered.set(session, state.seq);
    // A server started after the change read the disk itself; and most
    // questions come with nothing changed since the last one.
    if (since === undefined || since === state.seq) return;
    // Build output (cargo's target) changes under the root all the time and is not the project.
    const outputs = (session.client.spec.outputDirs ?? []).map((dir) => `${root}/${dir}/`);
    const recent = [...state.changes].filter(([path, c]) => c.seq > since && !outputs.some((o) => path.startsWith(o)));
    if (recent.length === 0) return;
    const changes = recent.map(([path, c]) => ({ path, renamed: c.renamedSeq > since }));
    const told = await tellServer(session, changes);
    if (told > 0) this.log(`${session.client.spec.id}: ${told} watched file change(s) under ${root}`);
  }

  /** Stops watching roots no server runs for any more: the daemon's housekeeping calls it. */
  prune(liveRoots: ReadonlySet<string>): void {
    for (const [root, state] of this.roots) {
      if (liveRoots.has(root)) continue;
      stop(state);
      this.roots.delete(root);
    }
  }

  close(): void {
    for (const state of this.roots.values()) stop(state);
    this.roots.clear();
  }
}

function stop(state: RootWatch): void {
  state.closed = true;
  for (const w of state.watchers.values()) w.close();
  state.watchers.clear();
}
