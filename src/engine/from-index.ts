/**
 * Answers from a SCIP index (`lspq index`), before any server is started:
 * def, refs, impls, typedef, hover and symbols -w, in the same shapes, with
 * `source: "index"`. Only what the index holds is answered from it: a
 * target file changed since the index, a place it has no occurrence for, or
 * a symbol defined outside the project goes to the live server (unless
 * --index-only). An answer names the files changed since the index that
 * may hold more (`stale`).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LspqError } from '../shared/errors';
import { TextSource, toLocation } from '../lsp/convert';
import { toServerCharacter } from '../lsp/position';
import { ancestors } from '../lsp/servers/install-places';
import { pathToUri } from '../lsp/uri';
import { changedSince, readManifest, unchanged, type Manifest } from '../scip/manifest';
import { lastName, ScipIndex, type ScipPlace } from '../scip/scip-index';
import { findWord } from '../shared/target';
import { displayPath } from '../shared/paths';
import type { CallerContext } from '../answers/caller';
import type { Location, ResolvedTarget } from '../answers/places';
import type { TargetSpec } from '../shared/target';
import { HELD_MEMORY } from '../lsp/manager';
import type { HandlerContext } from './context';

/** One index per file in the daemon, read again when the file changes. */
const held = new Map<string, { stamp: string; index: ScipIndex; manifest: Manifest | undefined; memory: number }>();

/** The memory the indexes held take (measured when read), counted under the daemon's limit with the servers'. */
HELD_MEMORY.push(() => [...held.values()].reduce((n, h) => n + h.memory, 0));

/** The index for a question: --index, LSPQ_INDEX, else `.lspq/index.scip` at or above `near` up to the checkout's top. */
function indexFile(req: CallerContext, near: string): string | undefined {
  if (req.index?.file) return req.index.file;
  if (req.env.LSPQ_INDEX) return resolve(req.cwd, req.env.LSPQ_INDEX);
  for (const d of ancestors(near)) {
    const file = join(d, '.lspq', 'index.scip');
    if (existsSync(file)) return file;
    if (existsSync(join(d, '.git'))) return undefined;
  }
  return undefined;
}

function load(file: string, fallbackRoot: string) {
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    throw new LspqError(
      'file_not_found',
      `the index ${file} does not exist; build it with 'lspq index' or drop --index`,
    );
  }
  const known = held.get(file);
  if (known?.stamp === stamp) return known;
  const before = process.memoryUsage().heapUsed;
  const index = ScipIndex.load(file, fallbackRoot);
  // The decoded index is several times its file; the heap's growth says how much (at least the file's size).
  const memory = Math.max(index.bytes, process.memoryUsage().heapUsed - before);
  const loaded = { stamp, index, manifest: readManifest(file), memory };
  held.set(file, loaded);
  return loaded;
}

/** The index for a workspace question about the project around `dir`, with its stale files; undefined: ask the servers. */
export async function forWorkspace(
  dir: string,
  req: CallerContext,
): Promise<{ index: ScipIndex; stale: string[] } | undefined> {
  const mode = req.index?.mode ?? 'auto';
  if (mode === 'off') return undefined;
  const file = indexFile(req, dir);
  if (!file) {
    if (mode === 'only') throw noIndex(dir, req.cwd);
    return undefined;
  }
  const { index, manifest } = load(file, req.root ?? dirname(dirname(file)));
  const stale = await staleFiles(manifest, index.root, req);
  return stale === undefined ? undefined : { index, stale };
}

/** The type a symbol is a member of (`Shape#area().` → Shape), as a live server names the container. */
export function containerOf(symbol: string): string | undefined {
  const m = /([A-Za-z0-9_$+-]+|`(?:[^`]|``)+`)#([A-Za-z0-9_$+-]+|`(?:[^`]|``)+`)(\([^)]*\)\.|\.|#)$/.exec(symbol);
  return m?.[1]?.replace(/^`|`$/g, '');
}

/** A symbol's kind from its SCIP descriptor's suffix, where the indexer wrote no kind. */
export function kindOf(symbol: string): string {
  // A method of nothing (a file's or a package's own) is a function.
  if (/\([^)]*\)\.$/.test(symbol))
    return /[/]([A-Za-z0-9_$+-]+|`(?:[^`]|``)+`)\([^)]*\)\.$/.test(symbol) ? 'function' : 'method';
  if (symbol.endsWith('#')) return 'class';
  if (symbol.endsWith('/')) return 'namespace';
  if (symbol.endsWith('!')) return 'function';
  return 'variable';
}

export interface IndexHit {
  index: ScipIndex;
  /** Files changed since the index was built (they may hold more). */
  stale: string[];
  /** The symbol at the target, and where the target is. */
  symbol: string;
  target: ResolvedTarget;
}

/** Where an index answer comes from, for the answer's server and root. */
export const indexServer = (index: ScipIndex) => index.tools[0] ?? 'scip';

/**
 * The index's symbol at a target, or undefined when the question is for a
 * live server (no index, --no-index, a changed file, a place the index has
 * nothing for). --index-only turns each of those into an error or nothing.
 */
export async function atTarget(
  spec: TargetSpec,
  req: CallerContext,
  ctx: HandlerContext,
): Promise<IndexHit | undefined> {
  const mode = req.index?.mode ?? 'auto';
  if (mode === 'off') return undefined;
  if (spec.kind === 'symbol') {
    if (mode === 'only')
      throw new LspqError('usage', '--index-only answers FILE:LINE:COL or FILE:LINE:NAME; drop --symbol');
    return undefined;
  }
  const file = indexFile(req, dirname(spec.path));
  if (!file) {
    if (mode === 'only') throw noIndex(spec.path, req.cwd);
    return undefined;
  }
  const { index, manifest } = load(file, req.root ?? dirname(dirname(file)));
  const stale = await staleFiles(manifest, index.root, req);
  if (stale === undefined) return undefined;
  const fresh = manifest ? unchanged(manifest, index.root, spec.path) : !stale.includes(spec.path);
  const doc = index.documents.get(spec.path);
  if (!fresh || !doc) {
    if (mode === 'only')
      throw new LspqError(
        'unsupported',
        `${displayPath(spec.path, req.cwd)} ${doc ? 'changed since the index was built' : 'is not in the index'}; run 'lspq index' again, or drop --index-only`,
      );
    return undefined;
  }
  const lines = ctx.pool.caches.lines.ofDisk(spec.path) ?? [];
  const lineText = lines[spec.line - 1];
  if (lineText === undefined) return undefined; // the live path says what is wrong with the target
  let column = spec.kind === 'position' ? spec.column : undefined;
  if (spec.kind === 'name') column = (findWord(lineText, spec.name)[spec.nth - 1] ?? -1) + 1 || undefined;
  if (column === undefined) return undefined;
  const occ = index.at(spec.path, spec.line - 1, toServerCharacter(lineText, column - 1, doc.encoding));
  if (!occ) return undefined;
  const symbol = spec.kind === 'name' ? spec.name : lastName(occ.symbol);
  return { index, stale, symbol: occ.symbol, target: { path: spec.path, line: spec.line, column, symbol } };
}

function noIndex(path: string, cwd: string): LspqError {
  return new LspqError(
    'unsupported',
    `no SCIP index for ${displayPath(path, cwd)} (looked for .lspq/index.scip up to the checkout's top, and LSPQ_INDEX); build one with 'lspq index'`,
  );
}

/**
 * The files git says changed against HEAD: what an index built at HEAD
 * elsewhere does not know. Outside a checkout nothing tells what changed:
 * such an index cannot speak for any file (unknownSince).
 */
async function gitChanged(root: string, env: Record<string, string>): Promise<string[]> {
  const { GitRepo } = require('../git/repo') as typeof import('../git/repo');
  const repo = await GitRepo.open(root, env);
  if (!repo) throw unknownSince(root);
  return (await repo.changedFiles()).changed;
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

/** The stale files, or undefined where they cannot be known (the live server answers then, or --index-only fails). */
async function staleFiles(
  manifest: Manifest | undefined,
  root: string,
  req: CallerContext,
): Promise<string[] | undefined> {
  if (manifest) return changedSince(manifest, root);
  try {
    return await gitChanged(root, req.env);
  } catch (err) {
    if (err instanceof LspqError && UNKNOWN_SINCE in err && req.index?.mode !== 'only') return undefined;
    throw err;
  }
}

/** Index places as lspq's locations: 1-based lines, columns in code points, with their line's preview. */
export function locationsOf(places: ScipPlace[], ctx: HandlerContext): Location[] {
  const texts = new TextSource(undefined, ctx.pool.caches.lines);
  return places.map((p) =>
    toLocation(
      pathToUri(p.path),
      { start: { line: p.line, character: p.character }, end: { line: p.endLine, character: p.endCharacter } },
      texts,
      p.encoding,
    ),
  );
}
