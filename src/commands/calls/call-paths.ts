/**
 * calls A --to B: how A reaches B. Outgoing calls are searched breadth
 * first from A, level by level up to --depth, so the chains found are the
 * shortest; every shortest chain is read back from B to A, up to --limit.
 */
import { Requests } from '../../lsp/requests';
import type { CallHierarchyItem, Range } from 'vscode-languageserver-protocol';
import { LspqError } from '../../common/errors';
import { toSpan } from '../../lsp/convert';
import type { Session } from '../../lsp/manager';
import { uriToPath } from '../../lsp/uri';
import type { CallHop, CallPathQuery, CallPathResult } from './question';
import { itemKey, toItem } from './handler';
import { type Deadline, deadlineFor, type HandlerContext } from '../../engine/context';
import { textsOf, using } from '../../engine/sessions';
import { type OpenTarget, openTarget } from '../../engine/open-target';

/** Past this many outgoing-call requests the search stops: a bound on time in a large project. */
const MAX_EXPANSIONS = 2_000;

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

/** Breadth first from `start`; for each item reached, every edge that reached it at its shortest distance. */
async function search(
  session: Session,
  start: CallHierarchyItem,
  goal: string,
  depth: number,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ parents: Map<string, Edge[]>; items: Map<string, CallHierarchyItem>; capped: boolean }> {
  const level = new Map<string, number>([[itemKey(start), 0]]);
  const parents = new Map<string, Edge[]>();
  const items = new Map<string, CallHierarchyItem>([[itemKey(start), start]]);
  let frontier = [start];
  let expansions = 0;
  for (let d = 1; d <= depth && frontier.length > 0 && !level.has(goal); d++) {
    const next: CallHierarchyItem[] = [];
    for (const item of frontier) {
      if (++expansions > MAX_EXPANSIONS) return { parents, items, capped: true };
      const calls = await outgoing(session, item, item === start, ctx, deadline);
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
  return { parents, items, capped: false };
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
    const { parents, items, capped } = await search(session, start, itemKey(goal), req.depth, ctx, deadline);
    const found = chains(itemKey(goal), itemKey(start), parents, req.limit);
    const total = count(itemKey(goal), itemKey(start), parents);
    // Stopped by its own cap before the goal: "no chain" would not be the whole answer.
    if (capped && found.length === 0)
      throw new LspqError(
        'incomplete',
        `the search stopped after ${MAX_EXPANSIONS} functions without reaching ${goal.name}, so whether a chain exists is not known; give a smaller --depth, or start nearer`,
      );
    const texts = textsOf(session, ctx);
    const item = (key: string) => {
      const reached = items.get(key);
      if (!reached) throw new Error(`internal: a call chain names ${key}, which the search did not reach`);
      const i = toItem(reached, texts, session);
      return { ...i, path: from.shown(i.path) };
    };
    const hops: CallHop[][] = found.map((chain) =>
      chain.map(({ to: key, edge }) => ({
        caller: item(edge.from),
        callee: item(key),
        ranges: edge.ranges.map((r) => toSpan(uriToPath(edge.uri), r, texts, session.client.encoding)),
      })),
    );
    return {
      from: item(itemKey(start)),
      to: (() => {
        const i = toItem(goal, texts, session);
        return { ...i, path: to.shown(i.path) };
      })(),
      server: session.client.spec.id,
      root: session.client.root,
      chains: hops,
      total,
      // Found before the cap stopped it: there may be more chains as short.
      truncated: total > found.length || capped,
    };
  });
}
