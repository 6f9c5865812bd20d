/**
 * calls A --to B: how A reaches B. Outgoing calls are searched breadth
 * first from A, level by level up to --depth, so the chains found are the
 * shortest; every shortest chain is read back from B to A, up to --limit.
 * A search that finds none says where it ended: at the depth, or with every
 * call followed, at trait or interface methods (whose implementations a
 * call does not lead to) or past functions passed as values.
 */
import { Requests } from '../../lsp/requests';
import type { CallHierarchyItem, Range } from 'vscode-languageserver-protocol';
import { LspqError } from '../../common/errors';
import { flattenLocations, toSpan } from '../../lsp/convert';
import {
  callablesWithin,
  declaredAt,
  enclosingSymbol,
  type SymbolsOf,
  symbolsOfFiles,
  withDeclaredKinds,
} from '../../engine/enclosing';
import type { Session } from '../../lsp/manager';
import { uriToPath } from '../../lsp/uri';
import type { CallHop, CallItem, CallPathQuery, CallPathResult, SearchEnd } from './question';
import { itemKey, toItem } from './handler';
import { type Deadline, deadlineFor, type HandlerContext } from '../../engine/context';
import { textsOf, using } from '../../engine/sessions';
import { type OpenTarget, openTarget } from '../../engine/open-target';

/** Past this many outgoing-call requests the search stops: a bound on time in a large project. */
const MAX_EXPANSIONS = 2_000;
/** With no chain found, the dead ends asked for their implementations, nearest first: why --depth does not help. */
const DEAD_ENDS_ASKED = 20;

interface Edge {
  from: string;
  ranges: Range[];
  uri: string;
}

async function prepared(open: OpenTarget, ctx: HandlerContext, deadline: Deadline): Promise<CallHierarchyItem> {
  const items = await open.session.client.request(
    Requests.prepareCallHierarchy,
    { textDocument: { uri: open.uri }, position: open.position },
    deadline.options(ctx),
  );
  const item = items?.[0];
  if (!item) throw new LspqError('bad_position', 'there is no function or method at the target; point at its name');
  return item;
}

/**
 * The calls a function makes. A function reached on the way that the
 * server cannot expand (gopls: "no symbol here" for a function outside the
 * workspace, a builtin) is a dead end of the search, not its failure; the
 * start's own failure is the question's.
 */
async function outgoing(
  session: Session,
  item: CallHierarchyItem,
  isStart: boolean,
  ctx: HandlerContext,
  deadline: Deadline,
) {
  try {
    return (await session.client.request(Requests.outgoingCalls, { item }, deadline.options(ctx))) ?? [];
  } catch (err) {
    if (isStart || !(err instanceof LspqError) || err.code !== 'server_failed') throw err;
    ctx.log(`${session.client.spec.id}: no outgoing calls of ${item.name} (${err.message}): a dead end of the search`);
    return [];
  }
}

interface Searched {
  parents: Map<string, Edge[]>;
  items: Map<string, CallHierarchyItem>;
  capped: boolean;
  /** Nothing was left to follow when the search ended: the depth did not stop it. */
  exhausted: boolean;
  /** The functions reached that make no call (or that the server cannot expand), nearest first. */
  deadEnds: CallHierarchyItem[];
}

/** Breadth first from `start`; for each item reached, every edge that reached it at its shortest distance. */
async function search(
  session: Session,
  start: CallHierarchyItem,
  goal: string,
  depth: number,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Searched> {
  const level = new Map<string, number>([[itemKey(start), 0]]);
  const parents = new Map<string, Edge[]>();
  const items = new Map<string, CallHierarchyItem>([[itemKey(start), start]]);
  const deadEnds: CallHierarchyItem[] = [];
  let frontier = [start];
  let expansions = 0;
  for (let d = 1; d <= depth && frontier.length > 0 && !level.has(goal); d++) {
    const next: CallHierarchyItem[] = [];
    for (const item of frontier) {
      if (++expansions > MAX_EXPANSIONS) return { parents, items, capped: true, exhausted: false, deadEnds };
      const calls = await outgoing(session, item, item === start, ctx, deadline);
      if (calls.length === 0 && item !== start) deadEnds.push(item);
      for (const call of calls) {
        const key = itemKey(call.to);
        const seen = level.get(key);
        if (seen !== undefined && seen < d) continue;
        if (seen === undefined) {
          level.set(key, d);
          items.set(key, call.to);
          next.push(call.to);
        }
        parents.set(key, [
          ...(parents.get(key) ?? []),
          { from: itemKey(item), ranges: call.fromRanges, uri: item.uri },
        ]);
      }
    }
    frontier = next;
  }
  return { parents, items, capped: false, exhausted: frontier.length === 0, deadEnds };
}

/**
 * Where a search that found no chain ended, and what it could not follow:
 * the dead ends that are trait or interface methods (no calls of their
 * own: the calls are their implementations', which are not interface
 * members themselves, as gopls answers a concrete method with the
 * interfaces it satisfies), and functions declared in those it went
 * through in the workspace that no call reached.
 */
async function searchEnd(
  searched: Searched,
  depth: number,
  session: Session,
  symbolsOf: SymbolsOf,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<SearchEnd> {
  const end: SearchEnd = {
    depth,
    reached: searched.items.size,
    exhausted: searched.exhausted,
    dispatch: [],
    passed: [],
  };
  const client = session.client;
  const texts = textsOf(session, ctx);
  const place = (uri: string, range: Range) => {
    const path = uriToPath(uri);
    const at = toSpan(path, range, texts, client.encoding);
    return { path: path ?? uri, line: at.line, column: at.column };
  };
  if (client.capabilities.implementationProvider) {
    for (const dead of searched.deadEnds.slice(0, DEAD_ENDS_ASKED)) {
      const own = place(dead.uri, dead.selectionRange);
      let found: { uri: string; range: Range }[] = [];
      try {
        const answer = await client.request(
          Requests.implementation,
          { textDocument: { uri: dead.uri }, position: dead.selectionRange.start },
          deadline.options(ctx),
        );
        found = flattenLocations(answer);
      } catch (err) {
        // A function that is no method has no implementations to name; a server may say so by failing.
        if (!(err instanceof LspqError) || err.code !== 'server_failed') throw err;
      }
      const implementations: { path: string; line: number; column: number }[] = [];
      for (const p of found.map((f) => place(f.uri, f.range))) {
        if (p.path === own.path && p.line === own.line && p.column === own.column) continue;
        const within = p.path.startsWith('/') ? enclosingSymbol(await symbolsOf(p.path), p.line, p.column) : undefined;
        if (within?.kind !== 'interface') implementations.push(p);
      }
      implementations.sort(
        (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || a.column - b.column,
      );
      if (implementations.length > 0) end.dispatch.push({ item: toItem(dead, texts, session), implementations });
    }
  }
  const reached = [...searched.items.values()].map((i) => toItem(i, texts, session));
  const at = new Set(reached.map((i) => `${i.path}:${i.line}:${i.column}`));
  for (const item of reached.filter((i) => i.path.startsWith(`${client.root}/`))) {
    const own = declaredAt(await symbolsOf(item.path), item.line, item.column);
    for (const inner of own ? callablesWithin(own) : []) {
      const key = `${item.path}:${inner.selection.line}:${inner.selection.column}`;
      if (at.has(key)) continue;
      at.add(key);
      const { line, column } = inner.selection;
      end.passed.push({ item: { name: inner.name, kind: inner.kind, path: item.path, line, column }, in: item.name });
    }
  }
  return end;
}

/** How many shortest chains lead from the start to `key`. */
function count(key: string, start: string, parents: Map<string, Edge[]>, memo = new Map<string, number>()): number {
  if (key === start) return 1;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const n = (parents.get(key) ?? []).reduce((sum, e) => sum + count(e.from, start, parents, memo), 0);
  memo.set(key, n);
  return n;
}

/** Every chain from the start to `goal` through the shortest-distance edges, up to `limit`, as lists of edges. */
function chains(
  goal: string,
  start: string,
  parents: Map<string, Edge[]>,
  limit: number,
): { to: string; edge: Edge }[][] {
  const out: { to: string; edge: Edge }[][] = [];
  const walk = (key: string, tail: { to: string; edge: Edge }[]) => {
    if (out.length >= limit) return;
    if (key === start) {
      out.push(tail);
      return;
    }
    for (const edge of parents.get(key) ?? []) walk(edge.from, [{ to: key, edge }, ...tail]);
  };
  walk(goal, []);
  return out;
}

export async function callPath(req: CallPathQuery, ctx: HandlerContext): Promise<CallPathResult> {
  const deadline = deadlineFor(req);
  const from = await openTarget(req.from, req, ctx, deadline, 'callHierarchyProvider', 'the call hierarchy');
  const to = await openTarget(req.to, req, ctx, deadline, 'callHierarchyProvider', 'the call hierarchy');
  if (to.session !== from.session) {
    throw new LspqError(
      'usage',
      `--to must name a function ${from.session.client.spec.id} knows; it names one of another server's files`,
    );
  }
  const session = from.session;
  return using(session, async () => {
    const start = await prepared(from, ctx, deadline);
    const goal = await prepared(to, ctx, deadline);
    const searched = await search(session, start, itemKey(goal), req.depth, ctx, deadline);
    const { parents, items, capped } = searched;
    const found = chains(itemKey(goal), itemKey(start), parents, req.limit);
    const total = count(itemKey(goal), itemKey(start), parents);
    // Stopped by its own cap before the goal: "no chain" would not be the whole answer.
    if (capped && found.length === 0)
      throw new LspqError(
        'incomplete',
        `the search stopped after ${MAX_EXPANSIONS} functions without reaching ${goal.name}, so whether a chain exists is not known; give a smaller --depth, or start nearer`,
      );
    const texts = textsOf(session, ctx);
    const symbolsOf = symbolsOfFiles(session, req, ctx, deadline);
    // Every item the answer names, with the kind its file's symbols give it (a method is no function).
    const keys = [...new Set([itemKey(start), ...found.flat().flatMap(({ to: key, edge }) => [edge.from, key])])];
    const named = await withDeclaredKinds(
      keys.map((key) => {
        const reached = items.get(key);
        if (!reached) throw new Error(`internal: a call chain names ${key}, which the search did not reach`);
        return toItem(reached, texts, session);
      }),
      symbolsOf,
    );
    const shown = (i: CallItem, open: OpenTarget = from) => ({ ...i, path: open.shown(i.path) });
    const byKey = new Map(keys.map((key, n) => [key, named[n]]));
    const item = (key: string) => {
      const i = byKey.get(key);
      if (!i) throw new Error(`internal: a call chain names ${key}, which the search did not reach`);
      return shown(i);
    };
    const hops: CallHop[][] = found.map((chain) =>
      chain.map(({ to: key, edge }) => ({
        caller: item(edge.from),
        callee: item(key),
        ranges: edge.ranges.map((r) => toSpan(uriToPath(edge.uri), r, texts, session.client.encoding)),
      })),
    );
    const [goalItem] = await withDeclaredKinds([toItem(goal, texts, session)], symbolsOf);
    const ended =
      found.length === 0 ? await searchEnd(searched, req.depth, session, symbolsOf, ctx, deadline) : undefined;
    return {
      from: item(itemKey(start)),
      to: shown(goalItem ?? toItem(goal, texts, session), to),
      server: session.client.spec.id,
      root: session.client.root,
      chains: hops,
      total,
      ...(ended
        ? {
            ended: {
              ...ended,
              dispatch: ended.dispatch.map((d) => ({
                item: shown(d.item),
                implementations: d.implementations.map((p) => ({ ...p, path: from.shown(p.path) })),
              })),
              passed: ended.passed.map((p) => ({ ...p, item: shown(p.item) })),
            },
          }
        : {}),
      // Found before the cap stopped it: there may be more chains as short.
      truncated: total > found.length || capped,
    };
  });
}
