/** calls: the target, then one line per caller (←) or callee (→), indented by depth. */
import type { CallItem, CallNode, CallsResult } from '../queries';
import { displayPath } from '../protocol/paths';
import { locationPrefix, truncationNote, type RenderOptions } from './style';
import { type Placed, placedLines } from './excerpts';
import type { CallNodeShape, CallsShape } from './json-shapes';
import type { Rendered } from './types';
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
  };
}

export function renderCalls(r: CallsResult, o: RenderOptions): Rendered {
  const arrow = r.direction === 'incoming' ? '←' : '→';
  const line = (item: CallItem, depth: number, prefix: string) =>
    `${locationPrefix(o, displayPath(item.path, o.cwd), item.line, item.column)} ${'  '.repeat(depth)}${prefix}${o.colors.dim(item.kind)} ${o.colors.bold(item.name)}`;
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
    warning: r.truncated ? truncationNote(shown, r.total, 'calls') : undefined,
  };
}
