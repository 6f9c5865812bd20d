/**
 * The daemon's watch of each root: files changed on disk (edited by other
 * programs, created, deleted, switched by git) are recorded as they happen
 * and told to each server before its next request (lsp/file-events.ts).
 * gopls and pyright see no change to an unopened file any other way.
 */
import { type FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';
import { tellServer } from '../lsp/file-events';
import type { Session } from '../lsp/manager';

interface RootWatch {
  watcher: FSWatcher | undefined;
  /** path → sequence number of its latest change, and of its latest creation, deletion or rename. */
  changes: Map<string, { seq: number; renamedSeq: number }>;
  seq: number;
}

/** Recorded changes beyond this many are forgotten oldest first: a server asked after that long a gap is told what is left. */
const CHANGES_MAX = 10_000;

const IGNORED = /(^|\/)(\.git|node_modules\/\.cache)(\/|$)/;

export class Watchers {
  private readonly roots = new Map<string, RootWatch>();
  private readonly delivered = new WeakMap<Session, number>();

  constructor(private readonly log: (line: string) => void) {}

  private watchRoot(root: string): RootWatch {
    const state: RootWatch = { watcher: undefined, changes: new Map(), seq: 0 };
    try {
      state.watcher = watch(root, { recursive: true }, (event, file) => {
        if (!file || IGNORED.test(String(file))) return;
        const path = join(root, String(file));
        const seq = ++state.seq;
        const renamedSeq = event === 'rename' ? seq : (state.changes.get(path)?.renamedSeq ?? 0);
        // Re-inserted so the map stays in order of the latest change, and the oldest go first.
        state.changes.delete(path);
        state.changes.set(path, { seq, renamedSeq });
        if (state.changes.size > CHANGES_MAX) state.changes.delete(state.changes.keys().next().value!);
      });
      state.watcher.on('error', (err) => this.log(`watching ${root} failed: ${err.message}`));
    } catch (err) {
      this.log(`cannot watch ${root}: ${(err as Error).message}; open documents are still re-synced`);
    }
    this.roots.set(root, state);
    return state;
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
      state.watcher?.close();
      this.roots.delete(root);
    }
  }

  close(): void {
    for (const state of this.roots.values()) state.watcher?.close();
    this.roots.clear();
  }
}
