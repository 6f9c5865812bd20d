/**
 * How much memory a server takes: the resident memory of its process and
 * every process below it (typescript-language-server runs tsserver
 * children, clangd none). Read from /proc; null where there is no /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';

function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Parent of each running process, read once for a whole accounting. */
export function processParents(): Map<number, number> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const parents = new Map<number, number>();
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(pid, ppid);
    } catch {}
  }
  return parents;
}

/** Resident bytes of `pid` and its descendants; null when it cannot be known. */
export function treeMemory(pid: number | undefined, parents = processParents()): number | null {
  if (pid === undefined || !parents) return null;
  const children = new Map<number, number[]>();
  for (const [child, parent] of parents) children.set(parent, [...(children.get(parent) ?? []), child]);
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.pop()!;
    total += rssOf(next);
    queue.push(...(children.get(next) ?? []));
  }
  return total;
}
