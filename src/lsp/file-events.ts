/**
 * Changes on disk told to a server before its next request: files changed,
 * created or deleted under its root since it last heard (the daemon's
 * watch records them, daemon/watch.ts), sent as one
 * workspace/didChangeWatchedFiles for the globs it registered, in order
 * before the request, which every server tested applies first
 * (docs/servers.md: files changed on disk). Files created since are also
 * opened on it where its project would not otherwise include them yet.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { DidChangeWatchedFilesNotification, FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import * as z from 'zod/mini';
import type { Session } from './manager';
import { WatchedFilesOptionsShape } from './message-shapes';
import { languageIdFor } from './servers/registry';
import { pathToUri, uriToPath } from './uri';

/** Files created since a server's last question that it is given as open documents; past this many, its watched-file events have to do. */
const OPEN_CREATED_MAX = 16;
/**
 * Files a 'pinned-documents' server (clangd) holds open because they
 * changed on disk; past this many it is started again instead: it
 * re-indexes what changed as it starts, in parallel, faster than it parses
 * that many open files.
 */
export const MAX_PINNED_DOCUMENTS = 32;

/** How a file changed since the server last heard. */
export interface DiskChange {
  path: string;
  kind: 'created' | 'changed' | 'deleted';
}

/** The files whose change makes rust-analyzer load its workspace again. */
const WORKSPACE_MANIFESTS = /\/(Cargo\.toml|Cargo\.lock|rust-project\.json)$/;

/** What the daemon's watch can say of a root: the changes since a mark, or undefined when they are no longer known. */
export interface DiskView {
  /** Reads every change recorded so far (the kernel's queue, where it can) and returns the mark after them. */
  markNow(): number;
  changesSince(root: string, since: number): DiskChange[] | undefined;
  filesUnder(root: string): string[];
  /** The mark since which every change under `root` is recorded; undefined while it is not watched whole. */
  watchedSince(root: string): number | undefined;
  /** Whether `root`'s own folder went away (deleted, moved) after mark `since`. */
  goneSince(root: string, since: number): boolean;
}

type Matcher = (path: string) => boolean;

function globsOf(session: Session): Matcher[] {
  const root = session.client.root;
  // What its editor extension would watch for it, under its root.
  const matchers: Matcher[] = (session.client.spec.fileEvents ?? []).map((pattern) => {
    const glob = new Bun.Glob(pattern);
    return (path) => {
      const rel = relative(root, path);
      return !rel.startsWith('..') && glob.match(rel);
    };
  });
  for (const reg of session.client.state.registrations.values()) {
    if (reg.method !== DidChangeWatchedFilesNotification.method) continue;
    // The options are the server's: globs of another shape are none lspq can match.
    const options = z.safeParse(WatchedFilesOptionsShape, reg.registerOptions);
    for (const w of options.success ? options.data.watchers : []) {
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

const TYPE: Record<DiskChange['kind'], FileChangeType> = {
  created: FileChangeType.Created,
  changed: FileChangeType.Changed,
  deleted: FileChangeType.Deleted,
};

/** The mark each session last heard at. */
const heard = new WeakMap<Session, number>();

/** The changes a session has not heard of yet that are its own language's files (the ones it would be given as documents). */
function unheardSources(session: Session, disk: DiskView): DiskChange[] | undefined {
  const since = heard.get(session) ?? session.diskMark;
  if (since === undefined) return [];
  return disk
    .changesSince(session.client.root, since)
    ?.filter((c) => c.kind !== 'deleted' && languageIdFor(session.client.spec, c.path) !== undefined);
}

/**
 * Why a server cannot be brought up to date but by starting it again (the
 * pool asks before it hands it out), if it cannot: its root's folder went
 * away since it started (deleted and made again, as a fresh clone at the
 * same path: what it loaded is another tree, and no event of the new one
 * reached it), or it keeps changed files open (clangd) and would have to
 * keep too many.
 */
export function outgrown(session: Session, disk: DiskView): string | undefined {
  disk.markNow();
  const mark = session.diskMark;
  if (mark !== undefined && disk.goneSince(session.client.root, mark))
    return 'its folder was replaced on disk since it started';
  if (session.client.spec.diskChanges !== 'pinned-documents') return undefined;
  const unheard = unheardSources(session, disk);
  if (unheard === undefined || session.docs.pinned + unheard.length > MAX_PINNED_DOCUMENTS)
    return 'too many files changed on disk to bring up to date';
  return undefined;
}

/**
 * Tells the session's server what changed on disk under its root since it
 * last heard. Returns how many watched-file events it was sent.
 */
export async function tellChanges(session: Session, disk: DiskView): Promise<number> {
  const root = session.client.root;
  const since = heard.get(session) ?? session.diskMark;
  const now = disk.markNow();
  heard.set(session, now);
  // A server started without a mark (outside the daemon) read the disk itself.
  if (since === undefined || since === now) return 0;
  const known = disk.changesSince(root, since);
  // What changed since is no longer known: everything may have, told as created and changed.
  const changes =
    known ??
    disk.filesUnder(root).flatMap((path): DiskChange[] => [
      { path, kind: 'created' },
      { path, kind: 'changed' },
    ]);
  // Build output (cargo's target) changes under the root all the time and is not the project.
  const outputs = (session.client.spec.outputDirs ?? []).map((dir) => `${root}/${dir}/`);
  const relevant = changes.filter((c) => !outputs.some((o) => c.path.startsWith(o)));
  if (relevant.length === 0) return 0;
  session.docs.touchWorld(known ? relevant.map((c) => c.path) : undefined);
  const mode = session.client.spec.diskChanges ?? 'watched';
  const matchers = globsOf(session);
  const watched = (path: string) => matchers.some((m) => m(path));
  if (mode === 'watched') {
    // Created files its watched-file events do not cover: opened, or its own watcher would lag the question.
    const unseen = relevant.filter((c) => c.kind === 'created' && !watched(c.path) && !session.docs.isOpen(c.path));
    await openCreated(
      session,
      unseen.map((c) => c.path),
    );
  } else {
    await giveAsDocuments(session, relevant, mode === 'pinned-documents');
  }
  // An open document's text is the client's to give (documents.ts re-sends it): disk events are for the rest.
  const events: FileEvent[] = relevant
    .filter((c) => !session.docs.isOpen(c.path) && watched(c.path))
    .map((c) => ({ uri: pathToUri(c.path), type: TYPE[c.kind] }));
  if (events.length === 0) return 0;
  // pyright takes a created or deleted file into its project only when it enumerates it again, on a timer.
  if (relevant.some((c) => c.kind !== 'changed' && languageIdFor(session.client.spec, c.path) !== undefined))
    session.client.state.expectEnumeration();
  // intelephense indexes a changed source a moment after the event.
  if (relevant.some((c) => languageIdFor(session.client.spec, c.path) !== undefined))
    session.client.state.expectIndexing();
  // rust-analyzer loads its workspace again when a manifest changes (cargo writes Cargo.lock on its first
  // metadata): a request sent right after the event was answered from the half-reloaded workspace (184 of 450).
  if (events.some((e) => WORKSPACE_MANIFESTS.test(e.uri))) session.client.state.expectReload();
  await session.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes: events });
  return events.length;
}

/**
 * Changed and created sources given as open documents, the text on disk
 * now, each as saved, but to a server whose save starts a check lspq drives
 * itself (rust-analyzer: after a git checkout of 150 files, 150 saves each
 * cancelled the cargo check under way, and diag took a cancelled one for
 * the end of its own); deleted ones are closed by the re-sync.
 */
async function giveAsDocuments(session: Session, changes: DiskChange[], pin: boolean): Promise<void> {
  const spec = session.client.spec;
  for (const { path, kind } of changes) {
    if (kind === 'deleted' || languageIdFor(spec, path) === undefined || !isFile(path)) continue;
    // An open document changed on disk is re-sent as saved by the sync itself.
    const wasOpen = session.docs.isOpen(path);
    await session.docs.sync(path);
    if (pin) session.docs.pin(path);
    else if (!wasOpen && spec.diagnostics !== 'pull-and-check') await session.docs.saved(path);
  }
}

async function openCreated(session: Session, paths: string[]): Promise<void> {
  const spec = session.client.spec;
  const created = paths.filter(
    (p) => languageIdFor(spec, p) !== undefined && !p.includes('/node_modules/') && isFile(p),
  );
  for (const path of created.slice(0, OPEN_CREATED_MAX)) await session.docs.sync(path);
}
