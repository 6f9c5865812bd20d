/** calls: incoming (callers) or outgoing (callees) call hierarchy, to --depth levels. */
import { buildLabel, envFor, otherBuilds } from '../../engine/go-builds';
import { projectFiles } from '../../lsp/project-files';
import { BUILTIN_SERVERS } from '../../lsp/servers/registry';
import { Requests } from '../../lsp/requests';
import type { CallHierarchyItem, Range } from 'vscode-languageserver-protocol';
import { LspqError, messageOf } from '../../common/errors';
import { symbolKindName, toSpan, type TextSource } from '../../lsp/convert';
import type { Session } from '../../lsp/manager';
import { uriToPath } from '../../lsp/uri';
import type { CallItem, CallNode, CallsQuery, CallsResult } from './question';
import { contextOf } from '../../engine/excerpts';
import { symbolsOfFiles, withDeclaredKinds, withEnclosing } from '../../engine/enclosing';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { using, textsOf } from '../../engine/sessions';
import { fromEachProject, loadProjects } from '../../engine/projects';
import { nameAt } from '../locations/other-builds';
import { openTarget } from '../../engine/open-target';

export function toItem(item: CallHierarchyItem, texts: TextSource, session: Session): CallItem {
  const path = uriToPath(item.uri);
  const span = toSpan(path, item.selectionRange, texts, session.client.encoding);
  return {
    name: item.name,
    kind: symbolKindName(item.kind),
    path: path ?? item.uri,
    line: span.line,
    column: span.column,
    ...(item.detail ? { detail: item.detail } : {}),
  };
}

/** Paths in a call tree as the user wrote them (a symlinked file shown as the link). */
function asShown(nodes: CallNode[], shown: (path: string) => string): CallNode[] {
  return nodes.map((n) => ({
    ...n,
    item: { ...n.item, path: shown(n.item.path) },
    calls: asShown(n.calls, shown),
  }));
}

/** Each call's context at the place it is printed (the caller or callee's name), when asked. */
function withCallContext(nodes: CallNode[], texts: TextSource, req: CallsQuery): CallNode[] {
  const around = req.context;
  if (!around) return nodes;
  return nodes.map((n) => ({
    ...n,
    ...(n.item.path.startsWith('/') ? { context: contextOf(texts, n.item.path, n.item.line, around) } : {}),
    calls: withCallContext(n.calls, texts, req),
  }));
}

export const itemKey = (item: CallHierarchyItem) =>
  `${item.uri}#${item.selectionRange.start.line}:${item.selectionRange.start.character}`;

/**
 * The callers (or callees) of a function; its callers also under Go's
 * other build configurations where files this build leaves out name it
 * (go-builds.ts), merged, and the files none compiles named.
 */
export async function calls(req: CallsQuery, ctx: HandlerContext): Promise<CallsResult> {
  const first = await callsOnce(req, ctx);
  if (req.direction !== 'incoming') return first;
  const spec = BUILTIN_SERVERS.find((s) => s.id === first.server);
  if (spec?.buildConfigurations !== 'go') return first;
  const name = first.item.name.split('.').pop() ?? first.item.name;
  const walk = () => projectFiles(spec, first.root, 20_000);
  const others = await otherBuilds(first.root, name, req.env, walk, ctx.disk);
  if (others.builds.length === 0 && others.unsearched.length === 0) return first;
  const unsearched = [...others.unsearched];
  const builds: string[] = [];
  const seen = new Set(first.calls.map((c) => `${c.item.path}:${c.item.line}:${c.item.column}`));
  const merged = [...first.calls];
  let total = first.total;
  for (const { build, files } of others.builds) {
    try {
      // An extra server: it never costs another project its warm servers (manager.ts).
      const again = await callsOnce({ ...req, env: envFor(req.env, build) }, { ...ctx, extraServers: true });
      for (const c of again.calls) {
        const key = `${c.item.path}:${c.item.line}:${c.item.column}`;
        if (seen.has(key)) continue;
        seen.add(key);
        merged.push(c);
        total++;
      }
      builds.push(buildLabel(build));
    } catch (err) {
      ctx.log(`${first.server} under ${buildLabel(build)}: ${messageOf(err)}`);
      unsearched.push(...files);
    }
  }
  return {
    ...first,
    calls: merged,
    total,
    truncated: first.truncated || total > req.limit,
    builds,
    ...(unsearched.length ? { unsearched: unsearched.sort() } : {}),
  };
}

async function callsOnce(req: CallsQuery, ctx: HandlerContext): Promise<CallsResult> {
  const deadline = deadlineFor(req);
  const { session, uri, position, shown, target } = await openTarget(
    req.target,
    req,
    ctx,
    deadline,
    'callHierarchyProvider',
    'the call hierarchy',
  );
  return using(session, async () => {
    const client = session.client;
    // Callers may be in any project of the workspace.
    if (req.direction === 'incoming') {
      const name = nameAt(target.path, target.line, target.column, target.symbol);
      await loadProjects(session, ctx, deadline, name ? { name } : undefined);
    }
    const options = () => deadline.options(ctx);
    const prepared = await client.request(
      Requests.prepareCallHierarchy,
      { textDocument: { uri }, position },
      options(),
    );
    const root = prepared?.[0];
    if (!root) throw new LspqError('bad_position', 'there is no function or method at the target; point at its name');
    const texts = textsOf(session, ctx);
    const counter = { total: 0 };
    const found = await expand(root, req, session, texts, deadline, ctx, counter, new Set([itemKey(root)]), 1);
    const { item, tree } = await withItemsIn(toItem(root, texts, session), found, session, req, ctx, deadline);
    return {
      item: { ...item, path: shown(item.path) },
      direction: req.direction,
      server: client.spec.id,
      root: client.root,
      calls: asShown(withCallContext(tree, texts, req), shown),
      total: counter.total,
      truncated: counter.total > req.limit,
    };
  });
}

/** Each item of the tree with the symbol it is declared in (`in`) and its kind, from its file's document symbols. */
async function withItemsIn(
  root: CallItem,
  nodes: CallNode[],
  session: Session,
  req: CallsQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ item: CallItem; tree: CallNode[] }> {
  const items: CallItem[] = [root];
  const collect = (list: CallNode[]) => {
    for (const n of list) {
      items.push(n.item);
      collect(n.calls);
    }
  };
  collect(nodes);
  const symbolsOf = symbolsOfFiles(session, req, ctx, deadline);
  const placed = await withDeclaredKinds(await withEnclosing(items, session, req, ctx, deadline, symbolsOf), symbolsOf);
  // Put back in the order they were collected: the root, then each node before its calls.
  let next = 0;
  const take = () => {
    const item = placed[next++];
    if (!item) throw new Error(`internal: ${items.length} calls were placed as ${placed.length}`);
    return item;
  };
  const item = take();
  const rebuild = (list: CallNode[]): CallNode[] => list.map((n) => ({ ...n, item: take(), calls: rebuild(n.calls) }));
  return { item, tree: rebuild(nodes) };
}

/** The calls into `item`, from every project of the workspace; a caller found from two projects once. */
async function callersOf(
  item: CallHierarchyItem,
  session: Session,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ item: CallHierarchyItem; ranges: Range[]; rangesUri: string }[]> {
  const client = session.client;
  const at = { uri: item.uri, position: item.selectionRange.start };
  const found = await fromEachProject(session, ctx, deadline, at, async (place) => {
    const here =
      place === at
        ? item
        : (
            await client.request(
              Requests.prepareCallHierarchy,
              { textDocument: { uri: place.uri }, position: place.position },
              deadline.options(ctx),
            )
          )?.[0];
    if (!here) return undefined;
    // tsserver answers for the project of the item's file: asked from another project, the item
    // is named at the reference there (the server resolves it to the same declaration).
    const asked =
      place === at ? here : { ...here, uri: place.uri, selectionRange: { start: place.position, end: place.position } };
    return (await client.request(Requests.incomingCalls, { item: asked }, deadline.options(ctx))) ?? [];
  });
  const seen = new Set<string>();
  return found
    .filter((c) => !seen.has(itemKey(c.from)) && seen.add(itemKey(c.from)) !== undefined)
    .map((c) => ({ item: c.from, ranges: c.fromRanges, rangesUri: c.from.uri }));
}

async function expand(
  item: CallHierarchyItem,
  req: CallsQuery,
  session: Session,
  texts: TextSource,
  deadline: Deadline,
  ctx: HandlerContext,
  counter: { total: number },
  onPath: Set<string>,
  level: number,
): Promise<CallNode[]> {
  const client = session.client;
  const options = deadline.options(ctx);
  const edges: { item: CallHierarchyItem; ranges: Range[]; rangesUri: string }[] =
    req.direction === 'incoming'
      ? await callersOf(item, session, ctx, deadline)
      : ((await client.request(Requests.outgoingCalls, { item }, options)) ?? []).map((c) => ({
          item: c.to,
          ranges: c.fromRanges,
          rangesUri: item.uri,
        }));
  // Outgoing: in the order the calls stand in the body. Incoming: the workspace's own files
  // first, then by path and line; never by where the checkout happens to live.
  const inRoot = (uri: string) => (uriToPath(uri)?.startsWith(`${client.root}/`) ? 0 : 1);
  const site = (e: (typeof edges)[number]) => e.ranges[0]?.start ?? { line: 0, character: 0 };
  edges.sort((a, b) =>
    req.direction === 'outgoing'
      ? site(a).line - site(b).line || site(a).character - site(b).character
      : inRoot(a.item.uri) - inRoot(b.item.uri) ||
        (a.item.uri < b.item.uri
          ? -1
          : a.item.uri > b.item.uri
            ? 1
            : a.item.selectionRange.start.line - b.item.selectionRange.start.line),
  );
  const nodes: CallNode[] = [];
  for (const edge of edges) {
    counter.total++;
    if (counter.total > req.limit) continue;
    const key = itemKey(edge.item);
    // A recursive call is shown once, not followed forever.
    const children =
      level < req.depth && !onPath.has(key)
        ? await expand(edge.item, req, session, texts, deadline, ctx, counter, new Set([...onPath, key]), level + 1)
        : [];
    const rangesPath = uriToPath(edge.rangesUri);
    nodes.push({
      item: toItem(edge.item, texts, session),
      ranges: edge.ranges.map((r) => toSpan(rangesPath, r, texts, client.encoding)),
      calls: children,
    });
  }
  return nodes;
}
