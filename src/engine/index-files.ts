/**
 * Which SCIP index answers a question, read once and held, and what
 * changed since it was built: --index, LSPQ_INDEX, else `.lspq/index.scip`
 * (built here) or `.lspq/fetched.json` (fetched from CI) at or above the
 * file up to the checkout's top, else with LSPQ_INDEX_URL one fetched now.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import type { CallerContext } from '../answers/caller';
import { HELD_MEMORY } from '../lsp/manager';
import { ancestors } from '../lsp/servers/install-places';
import { fetchedPath, fetchIndex, readFetched } from '../scip/fetch-index';
import { addedSince, changedSince, type Manifest, readManifest, unchanged } from '../scip/manifest';
import type { IndexAnswers } from '../scip/index-answers';
import { TableIndex } from '../scip/index-table';
import { ScipIndex } from '../scip/scip-index';
import { ensureTable, tablePath } from './index-tables';
import { LspqError, messageOf } from '../common/errors';
import { displayPath } from '../common/paths';
import type { HandlerContext } from './context';
import { checkoutTop } from '../project/checkout';
import { Trust } from '../trust/decision';
import { isOwn } from '../trust/own-files';

/** An index found for a question; `fetched`: built in CI at `commit` for the checkout at `top`. */
export interface FoundIndex {
  file: string;
  fetched?: { commit: string; top: string };
  /** Found in this folder's `.lspq/`: it describes this folder, wherever it was built (a clone's, a copy's). */
  beside?: string;
}

/** An index this large is followed by a full collection (it costs a few hundred milliseconds on GOROOT's). */
const LARGE_INDEX_BYTES = 16 * 1024 * 1024;

/** One index per file in the daemon, read again when the file changes. */
interface Held {
  stamp: string;
  index: IndexAnswers;
  manifest: Manifest | undefined;
  /** What it takes of the daemon's memory: nothing for a table (it is on disk), the decoded index otherwise. */
  memory: number;
}
const held = new Map<string, Held>();

/** The memory the indexes held take (measured when read), counted under the daemon's limit with the servers'. */
HELD_MEMORY.push(() => [...held.values()].reduce((n, h) => n + h.memory, 0));

/**
 * How a question uses an index: --no-index never, --index-only always, and
 * --server NAME never (it asks that live server, with or without an index).
 */
export function indexMode(req: CallerContext): 'auto' | 'only' | 'off' {
  const mode = req.index?.mode ?? 'auto';
  if (req.server === undefined) return mode;
  if (mode === 'only')
    throw new LspqError(
      'usage',
      `--server asks the live server ${req.server}; --index-only never starts one: give one of them`,
    );
  return 'off';
}

export async function findIndex(
  req: CallerContext,
  near: string,
  ctx: HandlerContext,
): Promise<FoundIndex | undefined> {
  if (req.index?.file) return { file: req.index.file };
  if (req.env.LSPQ_INDEX) return { file: resolve(req.cwd, req.env.LSPQ_INDEX) };
  const ours = (file: string, d: string) => mayReadIndex(file, d, req.env, ctx.trust);
  // Nothing here a moment ago: looked for again only after a while, unless only an index may answer.
  const remember = req.index?.mode !== 'only' && !req.env.LSPQ_INDEX_URL;
  const key = remember ? `${near}\0${Trust.stamp(req.env)}` : '';
  if (remember && ctx.pool.caches.indexless.get(key)) return undefined;
  let seen = false;
  const top = checkoutTop(near);
  for (const d of ancestors(near)) {
    const file = join(d, '.lspq', 'index.scip');
    if (existsSync(file)) {
      seen = true;
      if (ours(file, d)) return { file, beside: d };
    }
    if (existsSync(fetchedPath(d))) {
      seen = true;
      const fetched = ours(fetchedPath(d), d) ? readFetched(d) : undefined;
      if (fetched) return { file: fetched.file, fetched: { commit: fetched.commit, top: d } };
    }
    if (d === top) {
      if (req.env.LSPQ_INDEX_URL) return fetchNow(req.env.LSPQ_INDEX_URL, d, req, ctx);
      break;
    }
  }
  // One left out is said again by the next question: only a folder with no index file at all is remembered.
  if (remember && !seen) ctx.pool.caches.indexless.set(key, true);
  return undefined;
}

/**
 * Whether an index (or a fetched index's record) found in a workspace may
 * answer: one lspq made for the user (`lspq index`, `--fetch`), or one in
 * a trusted folder. An index a repository ships is its word about its
 * code: taken once trusted, never on git's say.
 */
export function mayReadIndex(file: string, found: string, env: Record<string, string>, trust: Trust): boolean {
  return isOwn(file, env) || trust.mayBelieve(file, found, 'an index that came with the workspace');
}

/** URL and HEAD pairs the URL had no index for: asked once per daemon, not once per question. */
const missing = new Set<string>();

/** An index fetched for the checkout at `top` (LSPQ_INDEX_URL), or undefined with one warning line. */
async function fetchNow(
  template: string,
  top: string,
  req: CallerContext,
  ctx: HandlerContext,
): Promise<FoundIndex | undefined> {
  const commits = await commitsFor(top, req.env);
  const key = `${template}\0${commits.join(',')}`;
  if (commits.length === 0 || missing.has(key)) return undefined;
  try {
    const fetched = await fetchIndex(template, commits, top, req.env, ctx.signal);
    if (fetched) return { file: fetched.file, fetched: { commit: fetched.commit, top } };
    ctx.warn?.(
      `no index at ${template} for ${commits.map((c) => c.slice(0, 12)).join(' or ')}; the live servers answer`,
    );
  } catch (err) {
    ctx.warn?.(`${messageOf(err)}; the live servers answer`);
  }
  missing.add(key);
  return undefined;
}

/** The commits an index from CI may be for: HEAD, then where it left the default branch. */
export async function commitsFor(top: string, env: Record<string, string>): Promise<string[]> {
  const { GitRepo } = require('../git/repo') as typeof import('../git/repo');
  const repo = await GitRepo.open(top, env);
  if (!repo) return [];
  const head = await repo.commitOf('HEAD');
  const base = await repo.mergeBaseWithDefault();
  return [...new Set([head, base].filter((c): c is string => c !== undefined))];
}

/** Indexes held at once: past this many, the least recently asked is let go (a table's connection closed). */
const HELD_MAX = 8;

/**
 * The index for a question: its table (made once, off this thread, then
 * read row by row), or where no table can be made, the index read whole.
 * Held until the file changes or it is the least recently asked of too many.
 */
export async function loadIndex(found: FoundIndex, req: CallerContext, ctx: HandlerContext) {
  const { file } = found;
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${st.size}:${st.mtimeMs}:${found.fetched?.top ?? ''}`;
  } catch {
    throw new LspqError(
      'file_not_found',
      `the index ${file} does not exist; build it with 'lspq index' or drop --index`,
    );
  }
  const key = `${file}\0${found.fetched?.top ?? ''}`;
  const known = held.get(key);
  if (known?.stamp === stamp) {
    // Most recently asked last: the first is the one to let go.
    held.delete(key);
    held.set(key, known);
    return known;
  }
  if (known) letGo(key);
  // A fetched index was built in another checkout: its paths start at this one's top, wherever CI had them.
  const root = found.fetched ? found.fetched.top : (found.beside ?? req.root ?? dirname(dirname(file)));
  const rebase = found.fetched !== undefined || found.beside !== undefined;
  const manifest = found.fetched ? undefined : readManifest(file);
  const table = tablePath(file, root, rebase, req.env);
  let loaded: Held | undefined;
  if (await ensureTable(file, root, rebase, table, ctx.log)) {
    try {
      loaded = { stamp, index: new TableIndex(file, table), manifest, memory: 0 };
    } catch (err) {
      ctx.log(`the table of ${file} cannot be read (${messageOf(err)}); reading the index whole`);
    }
  }
  loaded ??= readWhole(file, root, rebase, stamp, manifest);
  held.set(key, loaded);
  // Oldest first; a Map's iteration skips the keys letGo deletes.
  for (const oldest of held.keys()) if (held.size > HELD_MAX) letGo(oldest);
  return loaded;
}

function letGo(key: string): void {
  const h = held.get(key);
  held.delete(key);
  if (h?.index instanceof TableIndex) h.index.close();
}

/** The index read into memory, where its table cannot be had. */
function readWhole(file: string, root: string, rebase: boolean, stamp: string, manifest: Manifest | undefined): Held {
  const before = process.memoryUsage().heapUsed;
  const index = ScipIndex.load(file, root, rebase);
  // Reading left garbage several times the index's size (a string per occurrence): collected once this question
  // is answered, not at leisure, so the daemon's memory is the index's, not the reading's.
  if (index.bytes > LARGE_INDEX_BYTES) setTimeout(() => Bun.gc(true), 0);
  // The decoded index is several times its file; the heap's growth says how much (at least the file's size).
  const memory = Math.max(index.bytes, process.memoryUsage().heapUsed - before);
  return { stamp, index, manifest, memory };
}

const checkAll = async (manifest: Manifest, root: string) => [
  ...(await changedSince(manifest, root)),
  ...(await addedSince(manifest, root)),
];

/** Per index held: its root's watch being set up, then the files stale once it was, and its mark then. */
const watched = new WeakMap<object, { watching: Promise<number>; mark?: number; stale?: Set<string> }>();

/**
 * The files changed since the index was built, without looking at each of
 * them every question. The first question checks them all and sets the
 * daemon watching the index's root (off its answer's way); the first after
 * the watch is up checks them all once more, from its mark on; from then
 * on, only those and the files the watch saw change are looked at again.
 */
async function watchedStale(
  loaded: { index: IndexAnswers; manifest: Manifest | undefined },
  manifest: Manifest,
  disk: NonNullable<HandlerContext['disk']>,
): Promise<string[]> {
  const root = loaded.index.root;
  const known = watched.get(loaded);
  if (!known) {
    const watching = disk.watch(root);
    const entry: { watching: Promise<number>; mark?: number; stale?: Set<string> } = { watching };
    void watching.then((mark) => {
      entry.mark = mark;
    });
    watched.set(loaded, entry);
    return checkAll(manifest, root);
  }
  if (known.mark === undefined) return checkAll(manifest, root);
  // What the kernel holds for the watch and it has not read yet (it reads every 50 ms) is read first.
  disk.markNow();
  const changes = known.stale ? disk.changesSince(root, known.mark) : undefined;
  if (!known.stale || !changes) {
    known.mark = disk.markNow();
    known.stale = new Set(await checkAll(manifest, root));
    return [...known.stale];
  }
  // Only the files stale at the baseline and those the watch saw change are looked at again: one changed back
  // is fresh again; a new file of the index's languages is stale while it exists.
  const extensions = new Set(Object.keys(manifest.files).map((f) => extname(f)));
  const candidates = new Set(known.stale);
  for (const c of changes) if (extensions.has(extname(c.path))) candidates.add(c.path);
  return [...candidates].filter((path) =>
    relative(root, path) in manifest.files ? !unchanged(manifest, root, path) : existsSync(path),
  );
}

/** The roots of the indexes held: the daemon keeps watching them. */
export function heldIndexRoots(): string[] {
  return [...held.values()].map((h) => h.index.root);
}

export function noIndex(path: string, cwd: string): LspqError {
  return new LspqError(
    'unsupported',
    `no SCIP index for ${displayPath(path, cwd)} (looked for .lspq/index.scip up to the checkout's top, LSPQ_INDEX and LSPQ_INDEX_URL); build one with 'lspq index'`,
  );
}

/** An index without its manifest, outside a checkout: what changed since it was built cannot be known. */
const UNKNOWN_SINCE = 'unknown_since';
const unknownSince = (root: string) =>
  Object.assign(
    new LspqError(
      'unsupported',
      `the index of ${root} has no manifest and ${root} is no git checkout, so the files changed since it was built cannot be known; run 'lspq index' again, or drop --index-only`,
    ),
    { [UNKNOWN_SINCE]: true },
  );

/**
 * The files git says changed against `commit` (HEAD for an index copied
 * in without its manifest), added ones and untracked ones with them: what
 * an index built there does not know.
 */
async function gitChanged(root: string, env: Record<string, string>, commit = 'HEAD'): Promise<string[]> {
  const { GitRepo } = require('../git/repo') as typeof import('../git/repo');
  const repo = await GitRepo.open(root, env);
  if (!repo) throw unknownSince(root);
  if (commit === 'HEAD') return (await repo.changedFiles()).changed;
  // The commit may not be here (a shallow clone): then nothing can be known of what changed.
  if (!(await repo.commitOf(commit))) throw unknownSince(root);
  return (await repo.changedSince(commit, false)).flatMap((c) =>
    c.was && c.was !== c.path ? [c.path, c.was] : [c.path],
  );
}

/**
 * The files changed, added or deleted since the index, or undefined where
 * they cannot be known (the live server answers then, or --index-only fails).
 */
export async function staleFiles(
  loaded: { index: IndexAnswers; manifest: Manifest | undefined },
  found: FoundIndex,
  req: CallerContext,
  ctx?: HandlerContext,
): Promise<string[] | undefined> {
  const { manifest, index } = loaded;
  if (manifest) return ctx?.disk ? watchedStale(loaded, manifest, ctx.disk) : checkAll(manifest, index.root);
  try {
    return await gitChanged(index.root, req.env, found.fetched?.commit);
  } catch (err) {
    if (err instanceof LspqError && UNKNOWN_SINCE in err && req.index?.mode !== 'only') return undefined;
    throw err;
  }
}
