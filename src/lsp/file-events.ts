/**
 * Changes on disk told to a server: files changed, created or deleted under
 * its root since its last question, sent as one
 * workspace/didChangeWatchedFiles for the globs it registered, and files
 * created since opened on it (a server's own watcher lags the question: a
 * new file calling a function was missing from TypeScript's and pyright's
 * references). The daemon's watcher (daemon/watch.ts) records the changes.
 */
import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import {
  DidChangeWatchedFilesNotification,
  type DidChangeWatchedFilesRegistrationOptions,
  FileChangeType,
  type FileEvent,
} from 'vscode-languageserver-protocol';
import type { Session } from './manager';
import { languageIdFor } from './servers/registry';
import { pathToUri, uriToPath } from './uri';

/** Files created since a server's last question that it is given as open documents; past this many, its own watcher has to do. */
const OPEN_CREATED_MAX = 16;
/** A file changed on disk: its path, and whether it was created, deleted or renamed since the server last heard. */
export interface DiskChange {
  path: string;
  renamed: boolean;
}

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

/** Tells the session's server of `changes`; returns how many watched-file events it was sent. */
export async function tellServer(session: Session, changes: DiskChange[]): Promise<number> {
  session.docs.touchWorld();
  await openCreated(
    session,
    changes.filter((c) => c.renamed && !session.docs.isOpen(c.path)).map((c) => c.path),
  );
  const matchers = globsOf(session);
  if (matchers.length === 0) return 0; // it watches on its own (tsserver, rust-analyzer)
  const events: FileEvent[] = [];
  for (const { path, renamed } of changes) {
    if (!matchers.some((m) => m(path))) continue;
    const type = renamed
      ? existsSync(path)
        ? FileChangeType.Created
        : FileChangeType.Deleted
      : FileChangeType.Changed;
    events.push({ uri: pathToUri(path), type });
  }
  if (events.length === 0) return 0;
  await session.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: events });
  return events.length;
}

async function openCreated(session: Session, paths: string[]): Promise<void> {
  const spec = session.client.spec;
  const created = paths.filter(
    (p) => languageIdFor(spec, p) !== undefined && !p.includes('/node_modules/') && isFile(p),
  );
  for (const path of created.slice(0, OPEN_CREATED_MAX)) await session.docs.sync(path);
}
