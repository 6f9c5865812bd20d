/**
 * Answers from a SCIP index (`lspq index`), before any server is started:
 * def, refs, impls, typedef, hover and symbols -w, in the same shapes, with
 * `source: "index"`. Only what the index holds is answered from it: a
 * target file changed since the index, a place it has no occurrence for, or
 * a symbol defined outside the project goes to the live server (unless
 * --index-only). What the index says of a file changed, added or deleted
 * since is left out; where such a file names the symbol, the live server
 * answers (with --index-only, the answer lists it in `stale`).
 */
import { readWorkspaceText } from '../common/file-size';
import { dirname } from 'node:path';
import { LspqError } from '../common/errors';
import { TextSource, toLocation } from '../lsp/convert';
import { toServerCharacter } from '../lsp/position';
import { pathToUri } from '../lsp/uri';
import { type Manifest, unchanged } from '../scip/manifest';
import type { IndexAnswers } from '../scip/index-answers';
import { lastName, type ScipPlace } from '../scip/scip-index';
import { isLocal } from '../scip/scip-types';
import { placeOnLine } from './open-target';
import { assertConfined, assertFile } from './files';
import { displayPath } from '../common/paths';
import type { CallerContext } from '../answers/caller';
import type { Enclosing, Location, ResolvedTarget } from '../answers/places';
import type { TargetSpec } from '../common/target';
import type { HandlerContext } from './context';
import { findIndex, indexMode, loadIndex, noIndex, staleFiles } from './index-files';

/** The index for a workspace question about the project around `dir`, with its stale files; undefined: ask the servers. */
export async function forWorkspace(
  dir: string,
  req: CallerContext,
  ctx: HandlerContext,
): Promise<{ index: IndexAnswers; stale: string[] } | undefined> {
  const mode = indexMode(req);
  if (mode === 'off') return undefined;
  const found = await findIndex(req, dir, ctx);
  if (!found) {
    if (mode === 'only') throw noIndex(dir, req.cwd);
    return undefined;
  }
  const loaded = await loadIndex(found, req, ctx);
  const { index } = loaded;
  const stale = await staleFiles(loaded, found, req, ctx);
  return stale === undefined ? undefined : { index, stale };
}

/** The type a symbol is a member of (`Shape#area().` → Shape), as a live server names the container. */
export function containerOf(symbol: string): string | undefined {
  // rust-analyzer writes a member of an impl block as `impl#[Self][Trait]member`: its container is Self's name.
  const impl =
    /impl#\[(`(?:[^`]|``)+`|[^\]]+)\](?:\[(?:`(?:[^`]|``)+`|[^\]]+)\])?([A-Za-z0-9_$+-]+|`(?:[^`]|``)+`)(\([^)]*\)\.|\.|#)$/.exec(
      symbol,
    );
  if (impl) return impl[1]?.replace(/^`|`$/g, '').replace(/``/g, '`').replace(/<.*$/, '');
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
  index: IndexAnswers;
  /** What each indexed file was when the index was built, where the index has its manifest. */
  manifest: Manifest | undefined;
  /** Files changed, added or deleted since the index was built that name the symbol (they may hold more). */
  stale: string[];
  /** Every file changed, added or deleted since: what the index says of them is left out. */
  outdated: Set<string>;
  /** The symbol at the target, and where the target is. */
  symbol: string;
  target: ResolvedTarget;
}

/** Where an index answer comes from, for the answer's server and root. */
export const indexServer = (index: IndexAnswers) => index.tools[0] ?? 'scip';

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
  const mode = indexMode(req);
  if (mode === 'off') return undefined;
  if (spec.kind === 'symbol') {
    if (mode === 'only')
      throw new LspqError('usage', '--index-only answers FILE:LINE:COL, FILE:LINE:NAME or FILE:LINE; drop --symbol');
    return undefined;
  }
  assertConfined(spec.path, req.confine);
  const found = await findIndex(req, dirname(spec.path), ctx);
  // No index: the live server's path checks the file (checked twice, it cost every warm question four system calls).
  if (!found && mode !== 'only') return undefined;
  assertFile(spec.path, ctx.pool.caches.texts);
  if (!found) throw noIndex(spec.path, req.cwd);
  const loaded = await loadIndex(found, req, ctx);
  const { index, manifest } = loaded;
  const stale = await staleFiles(loaded, found, req, ctx);
  if (stale === undefined) return undefined;
  const fresh = manifest ? unchanged(manifest, index.root, spec.path) : !stale.includes(spec.path);
  const doc = index.document(spec.path);
  if (!fresh || !doc) {
    if (mode === 'only')
      throw new LspqError(
        'unsupported',
        `${displayPath(spec.path, req.cwd)} ${doc ? 'changed since the index was built' : 'is not in the index'}; run 'lspq index' again, or drop --index-only`,
      );
    return undefined;
  }
  const text = ctx.pool.caches.lines.ofDisk(spec.path);
  if (!text) {
    if (mode === 'only')
      throw new LspqError('unsupported', `${displayPath(spec.path, req.cwd)} cannot be read; drop --index-only`);
    return undefined; // the live path says what is wrong with the file
  }
  // The target checked as the live path checks it: the same one-line errors, with no server started.
  const where = displayPath(spec.path, req.cwd);
  const placed = placeOnLine(where, text.join('\n'), text, spec.line, spec);
  const { lineText } = placed;
  const occ = index.at(spec.path, spec.line - 1, toServerCharacter(lineText, placed.column - 1, doc.encoding));
  if (!occ) {
    if (mode === 'only')
      throw new LspqError(
        'unsupported',
        `the index holds no symbol at ${where}:${spec.line}:${placed.column}; drop --index-only to ask the live server`,
      );
    return undefined;
  }
  // An indexer's occurrence that does not write its symbol's name is a misreading (scip-python 0.6.6 gives
  // httpx's `Response` in some calls the symbol of `Request`): the live server answers.
  if (!writesName(lineText, placed.column, occ.symbol)) {
    if (mode === 'only')
      throw new LspqError(
        'unsupported',
        `the index's symbol at ${where}:${spec.line}:${placed.column} is ${lastName(occ.symbol)}, which is not what the file writes there (${indexServer(index)} misread it); drop --index-only to ask the live server`,
      );
    return undefined;
  }
  const symbol = placed.symbol ?? lastName(occ.symbol);
  // A changed, added or deleted file that names the symbol may hold more than the index: the live server answers.
  const named = isLocal(occ.symbol) ? [] : stale.filter((p) => mentions(p, lastName(occ.symbol)));
  if (named.length > 0 && mode !== 'only') return undefined;
  return {
    index,
    manifest,
    stale: named,
    outdated: new Set(stale),
    symbol: occ.symbol,
    target: { path: spec.path, line: spec.line, column: placed.column, symbol },
  };
}

/**
 * The files of an answer's places changed since the index, as the disk
 * has them now (size, time, and the hash where they differ): the watch
 * that found the others may not have heard of an edit made a moment ago,
 * and these files name the symbol. Those already known changed are not
 * looked at again; without a manifest, git said which changed, now.
 */
export function changedNow(hit: IndexHit, paths: Iterable<string>): string[] {
  const { manifest } = hit;
  if (!manifest) return [];
  return [...new Set(paths)].filter((p) => !hit.outdated.has(p) && !unchanged(manifest, hit.index.root, p));
}

/** Whether the file at `path` holds `name` as a whole word (a file gone holds nothing). */
export function mentions(path: string, name: string): boolean {
  const text = readWorkspaceText(path, 'source', { quietPastCap: true });
  if (text === undefined) return false;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if (!(before && WORD.test(before)) && !(after && WORD.test(after))) return true;
  }
  return false;
}
const WORD = /[\p{L}\p{N}_$]/u;

/** Whether the file at `path` holds `query` anywhere, in any case (what symbols -w matches names by). */
export function holdsText(path: string, query: string): boolean {
  return (
    readWorkspaceText(path, 'source', { quietPastCap: true })?.toLowerCase().includes(query.toLowerCase()) ?? false
  );
}

/**
 * Whether a line writes a symbol's name at a column (1-based, code points):
 * an identifier-like name must stand there whole; a name of another shape
 * (a constructor's, an operator's) is not judged.
 */
export function writesName(lineText: string, column: number, symbol: string): boolean {
  const name = lastName(symbol);
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return true;
  const chars = [...lineText];
  const at = chars.slice(column - 1, column - 1 + [...name].length).join('');
  const after = chars[column - 1 + [...name].length];
  return at === name && !(after && WORD.test(after));
}

/** The text an index's places are read against: the files on disk, their lines cached. */
export const indexTexts = (ctx: HandlerContext) => new TextSource(undefined, ctx.pool.caches.lines);

/** An index place as lspq's location: 1-based line, column in code points, with its line's preview. */
export function locationOf(p: ScipPlace, texts: TextSource): Location {
  return toLocation(
    pathToUri(p.path),
    { start: { line: p.line, character: p.character }, end: { line: p.endLine, character: p.endCharacter } },
    texts,
    p.encoding,
  );
}

/**
 * The symbol an index place sits in (`in`), as a server's answer names it
 * from the file's document symbols (enclosing.ts): the innermost
 * definition whose enclosed range holds it, qualified by the type it is a
 * member of (`Immer.createDraft`); undefined where the index records none
 * (scip-typescript writes no enclosed range for a value: an arrow function
 * held by a constant or a field) or names it only as a local.
 */
export function enclosingOf(index: IndexAnswers, place: ScipPlace): Enclosing | undefined {
  const symbol = index.enclosingAt(place.path, place.line, place.character);
  if (!symbol || isLocal(symbol)) return undefined;
  const own = lastName(symbol);
  const container = containerOf(symbol);
  return { name: container ? `${container}.${own}` : own, kind: kindOf(symbol) };
}
