/**
 * How much memory a server takes: the resident memory of its process and
 * every process below it (typescript-language-server runs tsserver
 * children, clangd none). From /proc on Linux, ps on macOS
 * (common/process-table.ts); null where neither answers.
 */
import { type ProcessInfo, processTable } from '../common/process-table';

/** Every process's parent and memory, read once for a whole accounting. */
export function processParents(): Map<number, ProcessInfo> | undefined {
  return processTable();
}

/** Resident bytes of `pid` and its descendants; null when it cannot be known. */
export function treeMemory(pid: number | undefined, table = processParents()): number | null {
  if (pid === undefined || !table) return null;
  const children = new Map<number, number[]>();
  for (const [child, info] of table) children.set(info.ppid, [...(children.get(info.ppid) ?? []), child]);
  let total = 0;
  const queue = [pid];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    total += table.get(next)?.rss ?? 0;
    queue.push(...(children.get(next) ?? []));
  }
  return total;
}
