/** calls: the target, then one line per caller (←) or callee (→), indented by depth. */
import type { CallHop, CallItem, CallNode, CallPathResult, CallsResult } from './question';
import { displayPath } from '../../common/paths';
import { cutLine, locationPrefix, plural, type RenderOptions } from '../../render/style';
import { type Placed, placedLines } from '../../render/placed-lines';
import type { CallNodeShape, CallPathShape, CallsShape } from './shape';
import type { Rendered } from '../../render/rendered';
import type * as z from 'zod/mini';

function itemJson(item: CallItem, cwd: string): CallItem {
  return { ...item, path: displayPath(item.path, cwd) };
}

function nodeJson(node: CallNode, cwd: string): z.infer<typeof CallNodeShape> {
  return {
    item: itemJson(node.item, cwd),
    ranges: node.ranges,
    ...(node.context ? { context: node.context } : {}),
    calls: node.calls.map((c) => nodeJson(c, cwd)),
  };
}

export function callsJson(r: CallsResult, cwd: string): z.infer<typeof CallsShape> {
  return {
    item: itemJson(r.item, cwd),
    direction: r.direction,
    server: r.server,
    root: r.root,
    calls: r.calls.map((c) => nodeJson(c, cwd)),
    total: r.total,
    truncated: r.truncated,
    ...(r.builds?.length ? { builds: r.builds } : {}),
    ...(r.unsearched?.length ? { unsearched: r.unsearched.map((p) => displayPath(p, cwd)) } : {}),
  };
}

export function renderCalls(r: CallsResult, o: RenderOptions): Rendered {
  const arrow = r.direction === 'incoming' ? '←' : '→';
  const within = (item: CallItem) => (item.in ? o.colors.dim(`  (in ${item.in.name})`) : '');
  const line = (item: CallItem, depth: number, prefix: string) =>
    `${locationPrefix(o, displayPath(item.path, o.cwd), item.line, item.column)} ${'  '.repeat(depth)}${prefix}${o.colors.dim(item.kind)} ${o.colors.bold(item.name)}${within(item)}`;
  const at = (item: CallItem) => ({ path: displayPath(item.path, o.cwd), line: item.line });
  const places: Placed[] = [{ ...at(r.item), text: line(r.item, 0, '') }];
  let shown = 0;
  const walk = (nodes: CallNode[], depth: number) => {
    for (const n of nodes) {
      shown++;
      places.push({ ...at(n.item), text: line(n.item, depth, `${arrow} `), context: n.context });
      walk(n.calls, depth + 1);
    }
  };
  walk(r.calls, 1);
  return {
    stdout: placedLines(places),
    ...(r.truncated ? { cut: cutLine(shown, r.total) } : {}),
  };
}

export function callPathJson(r: CallPathResult, cwd: string): z.infer<typeof CallPathShape> {
  const hop = (h: CallHop) => ({ caller: itemJson(h.caller, cwd), callee: itemJson(h.callee, cwd), ranges: h.ranges });
  return {
    from: itemJson(r.from, cwd),
    to: itemJson(r.to, cwd),
    server: r.server,
    root: r.root,
    chains: r.chains.map((chain) => chain.map(hop)),
    total: r.total,
    truncated: r.truncated,
  };
}

/** Each chain as its call sites, one per hop (`path:line:col: caller -> callee`), chains set apart by `--`. */
export function renderCallPath(r: CallPathResult, o: RenderOptions): Rendered {
  const chains = r.chains.map((chain) =>
    chain
      .map((h) => {
        const site = h.ranges[0] ?? { line: h.caller.line, column: h.caller.column };
        const prefix = locationPrefix(o, displayPath(h.caller.path, o.cwd), site.line, site.column);
        return `${prefix} ${o.colors.bold(h.caller.name)} -> ${o.colors.bold(h.callee.name)}`;
      })
      .join('\n'),
  );
  return {
    stdout: chains.length ? `${chains.join('\n--\n')}\n` : '',
    ...(r.truncated ? { cut: chainsCut(r) } : {}),
  };
}

/** A few of a list, and how many more. */
function few(items: string[], shown = 3): string {
  return items.length > shown
    ? `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`
    : items.join(', ');
}

/**
 * Why no chain was found: the depth ran out, or every call was followed to
 * its end, past trait or interface methods and functions passed as values,
 * which no call leads into (named, each with where to ask from instead).
 */
export function noChainNote(r: CallPathResult, cwd: string): string {
  const head = `no call chain from ${r.from.name} to ${r.to.name}`;
  const e = r.ended;
  if (!e) return `${head} within the depth searched; raise --depth`;
  const at = (p: { path: string; line: number; column: number }) => `${displayPath(p.path, cwd)}:${p.line}:${p.column}`;
  const why: string[] = [];
  if (e.dispatch.length > 0)
    why.push(
      `it went through ${few(e.dispatch.map((d) => `${d.item.name} (${at(d.item)}, implemented at ${few(d.implementations.map(at))})`))}, a trait or interface method whose implementations no call leads into: ask from an implementation`,
    );
  if (e.passed.length > 0)
    why.push(
      `no call reaches ${few(e.passed.map((p) => `${p.item.name} (${at(p.item)}, declared in ${p.in})`))}, passed as a value rather than called: ask from it`,
    );
  if (!e.exhausted && why.length === 0)
    return `${head} within --depth ${e.depth}, past which calls remain to follow; raise --depth`;
  if (!e.exhausted)
    return `${head} within --depth ${e.depth}: ${why.join('; ')}; calls also remain past --depth ${e.depth}`;
  return `${head}: every call from ${r.from.name} was followed to its end (${plural(e.reached, 'function')} reached), so a larger --depth finds none${why.length ? `; ${why.join('; ')}` : ''}`;
}

/** More chains than --limit, or a search stopped at its own cap (more as short may exist, and --limit 0 does not find them). */
function chainsCut(r: CallPathResult): string {
  if (r.total > r.chains.length) return cutLine(r.chains.length, r.total);
  return `${r.chains.length} shown: the search stopped at its cap, so more chains as short may exist; give a smaller --depth, or start nearer`;
}
