/** symbols FILE (a tree) and symbols -w QUERY (across the workspace). */
import { LspqError } from '../../common/errors';
import { Requests } from '../../lsp/requests';
import { withContext } from '../../engine/excerpts';
import {
  containerOf,
  forWorkspace,
  holdsText,
  indexServer,
  indexTexts,
  kindOf,
  locationOf,
} from '../../engine/from-index';
import type { DocumentSymbol as LspDocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { symbolKindName, symbolTree, TextSource, toSpan } from '../../lsp/convert';
import type { PositionEncoding } from '../../lsp/position';
import type {
  DocumentSymbol,
  SymbolsQuery,
  SymbolsResult,
  WorkspaceSymbolsQuery,
  WorkspaceSymbolsResult,
} from './question';
import type { WorkspaceSymbol } from '../../answers/places';
import type { ScipPlace } from '../../scip/scip-types';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { assertFile, followLink, nameInProject } from '../../engine/files';
import { prepare, sessionFor, using, textsOf } from '../../engine/sessions';
import { searchWorkspace, symbolSessions, toWorkspaceSymbol } from '../../engine/symbol-search';
import { checkoutTop } from '../../project/checkout';
import { inDependencies } from '../../project/folders';

const byPosition = (a: DocumentSymbol, b: DocumentSymbol) => a.line - b.line || a.column - b.column;

/** A detail that only says the name again with a keyword ("class Square", "def area", as jedi gives it) tells nothing. Pure. */
export function restatesName(detail: string, name: string): boolean {
  const words = detail.trim().split(/\s+/);
  return words.length === 2 && words[1] === name;
}

function fromHierarchy(
  path: string,
  symbols: LspDocumentSymbol[],
  texts: TextSource,
  encoding: PositionEncoding,
): DocumentSymbol[] {
  return symbols
    .map(
      (s): DocumentSymbol => ({
        name: s.name,
        kind: symbolKindName(s.kind),
        ...(s.detail && !restatesName(s.detail, s.name) ? { detail: s.detail } : {}),
        // The name's position, so any line can be fed back as a target.
        ...toSpan(path, s.selectionRange, texts, encoding),
        children: fromHierarchy(path, s.children ?? [], texts, encoding),
      }),
    )
    .sort(byPosition);
}

/** Flat SymbolInformation (older servers) nested by range containment. */
function fromFlat(
  path: string,
  symbols: SymbolInformation[],
  texts: TextSource,
  encoding: PositionEncoding,
): DocumentSymbol[] {
  const sorted = [...symbols].sort(
    (a, b) =>
      a.location.range.start.line - b.location.range.start.line ||
      a.location.range.start.character - b.location.range.start.character,
  );
  const roots: DocumentSymbol[] = [];
  const stack: { end: { line: number; character: number }; node: DocumentSymbol }[] = [];
  for (const s of sorted) {
    const node: DocumentSymbol = {
      name: s.name,
      kind: symbolKindName(s.kind),
      ...toSpan(path, s.location.range, texts, encoding),
      children: [],
    };
    const start = s.location.range.start;
    for (let top = stack.at(-1); top; top = stack.at(-1)) {
      if (start.line < top.end.line || (start.line === top.end.line && start.character < top.end.character)) break;
      stack.pop();
    }
    (stack.at(-1)?.node.children ?? roots).push(node);
    stack.push({ end: s.location.range.end, node });
  }
  return roots;
}

/** Keeps symbols of the wanted kinds; a parent of another kind gives way to its matching descendants. */
export function filterKinds(symbols: DocumentSymbol[], kinds: string[] | undefined): DocumentSymbol[] {
  if (!kinds || kinds.length === 0) return symbols;
  return symbols.flatMap((s) => {
    const children = filterKinds(s.children, kinds);
    return kinds.includes(s.kind) ? [{ ...s, children }] : children;
  });
}

/** Pre-order count and cut at `limit` nodes. */
export function limitTree(symbols: DocumentSymbol[], limit: number): { symbols: DocumentSymbol[]; total: number } {
  let kept = 0;
  let total = 0;
  const walk = (list: DocumentSymbol[]): DocumentSymbol[] => {
    const out: DocumentSymbol[] = [];
    for (const s of list) {
      total++;
      const keep = kept < limit;
      if (keep) kept++;
      const children = walk(s.children);
      if (keep) out.push({ ...s, children });
    }
    return out;
  };
  const symbolsKept = walk(symbols);
  return { symbols: symbolsKept, total };
}

export async function documentSymbols(req: SymbolsQuery, ctx: HandlerContext): Promise<SymbolsResult> {
  const deadline = deadlineFor(req);
  assertFile(req.path);
  if (req.index?.mode === 'only')
    throw new LspqError(
      'unsupported',
      "a file's symbols come from a live server; --index-only answers symbols -w QUERY (drop --index-only)",
    );
  // A symlink is answered from the project of the file it points to.
  const { real } = followLink(req.path, req.cwd);
  const session = await sessionFor(ctx, req, real, 'documentSymbolProvider', 'document symbols');
  const asked = nameInProject(req.path, real, session.client.root);
  return using(session, async () => {
    await session.docs.sync(asked);
    await prepare(session, ctx, deadline);
    const client = session.client;
    const uri = session.docs.uri(asked);
    const raw = await client.request(Requests.documentSymbol, { textDocument: { uri } }, deadline.options(ctx));
    const texts = textsOf(session, ctx);
    const answer = symbolTree(raw ?? []);
    const tree =
      'tree' in answer
        ? fromHierarchy(req.path, answer.tree, texts, client.encoding)
        : fromFlat(req.path, answer.flat, texts, client.encoding);
    const { symbols, total } = limitTree(filterKinds(tree, req.kinds), req.limit);
    return { path: req.path, server: client.spec.id, root: client.root, symbols, total, truncated: total > req.limit };
  });
}

export async function workspaceSymbols(
  req: WorkspaceSymbolsQuery,
  ctx: HandlerContext,
): Promise<WorkspaceSymbolsResult> {
  const indexed = await forWorkspace(req.root ?? req.cwd, req, ctx);
  // A file changed, added or deleted since the index that holds the query may declare more: the live servers answer.
  const named = indexed ? indexed.stale.filter((p) => holdsText(p, req.query)) : [];
  if (indexed && (named.length === 0 || req.index?.mode === 'only')) {
    const stale = new Set(indexed.stale);
    // What the index says of those files is left out: a definition there may have moved or gone.
    const found = (await indexed.index.search(req.query)).filter((s) => !stale.has(s.place.path));
    // Sorted and cut on the index's own positions (a line's columns keep their order in any unit): only the
    // symbols shown have their columns converted, which reads their files (all of them, 25 ms for 'Join' in Go's).
    const all = found
      .map((s) => ({ ...s, kind: kindOf(s.symbol) }))
      .filter((s) => !req.kinds?.length || req.kinds.includes(s.kind))
      .sort((a, b) => comparePlaces(a.place, b.place));
    const shown = all.slice(0, req.limit);
    const texts = indexTexts(ctx);
    const symbols = shown.map(({ name, symbol, kind, place }) => {
      const { path, line, column } = locationOf(place, texts);
      const container = containerOf(symbol);
      return { name, kind, ...(container ? { container } : {}), path, line, column };
    });
    return {
      query: req.query,
      server: indexServer(indexed.index),
      root: indexed.index.root,
      symbols: withContext(symbols, new TextSource(undefined, ctx.pool.caches.lines), req.context),
      total: all.length,
      truncated: all.length > req.limit,
      // An index records the project's documents only.
      inDependencies: 0,
      source: 'index',
      stale: named,
    };
  }
  const deadline = deadlineFor(req);
  const sessions = await symbolSessions(req, ctx, 'symbols -w');
  const own: WorkspaceSymbol[] = [];
  const theirs: WorkspaceSymbol[] = [];
  // A server that stops at its own cap (gopls at 100) has not said all: the answer is cut, whatever --limit is.
  const capped: { server: string; cap: number }[] = [];
  for (const session of sessions) {
    const texts = textsOf(session, ctx);
    const found = await searchWorkspace(session, req.query, ctx, deadline);
    const cap = session.client.spec.symbolCap;
    if (cap !== undefined && found.length >= cap) capped.push({ server: session.client.spec.id, cap });
    // gopls's fuzzy matches in the standard library (ChaCha8.AppendBinary for Matcher) come after the project's.
    const dependency = inDependencies(checkoutTop(session.client.root) ?? session.client.root);
    for (const s of found) {
      const sym = toWorkspaceSymbol(s, session, texts);
      if (sym && (!req.kinds?.length || req.kinds.includes(sym.kind))) (dependency(sym.path) ? theirs : own).push(sym);
    }
  }
  const all = req.deps ? [...own, ...theirs] : own;
  return {
    query: req.query,
    server: sessions.map((s) => s.client.spec.id).join(','),
    root: sessions[0].client.root,
    // Context from the text the first server sees (an open document's, else the disk's).
    symbols: withContext(all.slice(0, req.limit), textsOf(sessions[0], ctx), req.context),
    total: all.length,
    truncated: all.length > req.limit || capped.length > 0,
    inDependencies: req.deps ? 0 : theirs.length,
    source: 'server',
    ...(capped.length ? { serverCaps: capped } : {}),
  };
}

/** Index places by file, line and column. */
function comparePlaces(a: ScipPlace, b: ScipPlace): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line || a.character - b.character;
}
