/**
 * Files changed on disk under a root (edited by other programs, created,
 * deleted, switched by git), told to each server before its next request as
 * one workspace/didChangeWatchedFiles, filtered by the globs it registered.
 * gopls and pyright see no change to an unopened file any other way.
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { languageIdFor } from '../lsp/servers/registry';
import { join, relative } from 'node:path';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type DidChangeWatchedFilesRegistrationOptions,
  type FileEvent,
} from 'vscode-languageserver-protocol';
import type { Session } from '../lsp/manager';
import { pathToUri, uriToPath } from '../lsp/uri';

interface RootWatch {
  watcher: FSWatcher | undefined;
  /** path → sequence number of its latest change, and of its latest creation, deletion or rename. */
  changes: Map<string, { seq: number; renamedSeq: number }>;
  seq: number;
}

/** Files created since a server's last question that it is given as open documents; past this many, its own watcher has to do. */
const OPEN_CREATED_MAX = 16;
/** Recorded changes beyond this many are forgotten oldest first: a server asked after that long a gap is told what is left. */
const CHANGES_MAX = 10_000;

const IGNORED = /(^|\/)(\.git|node_modules\/\.cache)(\/|$)/;

type Matcher = (path: string) => boolean;

function globsOf(session: Session): Matcher[] {
  const matchers: Matcher[] = [];
  for (const reg of session.client.registrations.values()) {
    if (reg.method !== DidChangeWatchedFilesNotification.method) continue;
    const options = reg.registerOptions as DidChangeWatchedFilesRegistrationOptions | undefined;
    for (const w of options?.watchers ?? []) {
      const pattern = typeof w.globPattern === 'string' ? w.globPattern : w.globPattern.pattern;
      const baseUri =
        typeof w.globPattern === 'string'
          ? undefined
          : typeof w.globPattern.baseUri === 'string'
            ? w.globPattern.baseUri
            : w.globPattern.baseUri.uri;
      const base = baseUri ? uriToPath(baseUri) : undefined;
      const glob = new Bun.Glob(pattern);
      matchers.push((path) => {
        if (base) {
          const rel = relative(base, path);
          return !rel.startsWith('..') && glob.match(rel);
        }
        return glob.match(path) || glob.match(path.slice(1));
      });
    }
  }
  return matchers;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

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
    session.docs.touchWorld();
    await this.openCreated(
      session,
      recent.filter(([path, c]) => c.renamedSeq > since && !session.docs.isOpen(path)).map(([path]) => path),
    );
    const matchers = globsOf(session);
    if (matchers.length === 0) return; // it watches on its own (tsserver, rust-analyzer)
    const events: FileEvent[] = [];
    for (const [path, c] of recent) {
      if (!matchers.some((m) => m(path))) continue;
      const type =
        c.renamedSeq > since
          ? existsSync(path)
            ? FileChangeType.Created
            : FileChangeType.Deleted
          : FileChangeType.Changed;
      events.push({ uri: pathToUri(path), type });
    }
    if (events.length === 0) return;
    this.log(`${session.client.spec.id}: ${events.length} watched file change(s) under ${root}`);
    await session.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: events });
  }

  private async openCreated(session: Session, paths: string[]): Promise<void> {
    const spec = session.client.spec;
    const created = paths.filter(
      (p) => languageIdFor(spec, p) !== undefined && !p.includes('/node_modules/') && isFile(p),
    );
    for (const path of created.slice(0, OPEN_CREATED_MAX)) await session.docs.sync(path);
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
