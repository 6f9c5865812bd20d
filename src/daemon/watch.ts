/**
 * Files changed on disk under a root (edited by other programs, created,
 * deleted, switched by git), told to each server before its next request as
 * one workspace/didChangeWatchedFiles, filtered by the globs it registered.
 * gopls and pyright see no change to an unopened file any other way.
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
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
  /** path → sequence number of its latest change. */
  changes: Map<string, number>;
  seq: number;
}

const IGNORED = /(^|\/)(\.git|node_modules\/\.cache)(\/|$)/;

type Matcher = (path: string) => boolean;

function globsOf(session: Session): Matcher[] {
  const matchers: Matcher[] = [];
  for (const reg of session.client.registrations.values()) {
    if (reg.method !== DidChangeWatchedFilesNotification.method) continue;
    const options = reg.registerOptions as DidChangeWatchedFilesRegistrationOptions | undefined;
    for (const w of options?.watchers ?? []) {
      const pattern = typeof w.globPattern === 'string' ? w.globPattern : w.globPattern.pattern;
      const baseUri = typeof w.globPattern === 'string' ? undefined : typeof w.globPattern.baseUri === 'string' ? w.globPattern.baseUri : w.globPattern.baseUri.uri;
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

export class Watchers {
  private readonly roots = new Map<string, RootWatch>();
  private readonly delivered = new WeakMap<Session, number>();

  constructor(private readonly log: (line: string) => void) {}

  private watchRoot(root: string): RootWatch {
    const state: RootWatch = { watcher: undefined, changes: new Map(), seq: 0 };
    try {
      state.watcher = watch(root, { recursive: true }, (_event, file) => {
        if (!file || IGNORED.test(String(file))) return;
        state.changes.set(join(root, String(file)), ++state.seq);
      });
      state.watcher.on('error', (err) => this.log(`watching ${root} failed: ${err.message}`));
    } catch (err) {
      this.log(`cannot watch ${root}: ${(err as Error).message}; open documents are still re-synced`);
    }
    this.roots.set(root, state);
    return state;
  }

  /** Sends the session's server every change under its root since its last request. */
  async flush(session: Session): Promise<void> {
    const root = session.client.root;
    const state = this.roots.get(root) ?? this.watchRoot(root);
    const since = this.delivered.get(session);
    this.delivered.set(session, state.seq);
    // A server started after the change read the disk itself; and most
    // questions come with nothing changed since the last one.
    if (since === undefined || since === state.seq) return;
    const matchers = globsOf(session);
    if (matchers.length === 0) return; // it watches on its own (tsserver, rust-analyzer)
    const events: FileEvent[] = [];
    for (const [path, seq] of state.changes) {
      if (seq <= since || !matchers.some((m) => m(path))) continue;
      events.push({ uri: pathToUri(path), type: this.changeType(path, session) });
    }
    if (events.length === 0) return;
    this.log(`${session.client.spec.id}: ${events.length} watched file change(s) under ${root}`);
    await session.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: events });
  }

  private changeType(path: string, session: Session): FileChangeType {
    if (!existsSync(path)) return FileChangeType.Deleted;
    try {
      const born = statSync(path).birthtimeMs;
      if (born > 0 && born >= session.client.startedAt) return FileChangeType.Created;
    } catch {}
    return FileChangeType.Changed;
  }

  close(): void {
    for (const state of this.roots.values()) state.watcher?.close();
    this.roots.clear();
  }
}
