/**
 * Whether a server still has the worker process it answers through
 * (typescript-language-server's tsserver): a child of the server's process
 * whose command line matches, and that has not exited. Asked when such a
 * server answers with nothing, since a server whose worker died answers
 * nothing to everything.
 */
import { readFileSync } from 'node:fs';
import { commandLine, isZombie, processTable } from '../common/process-table';

/** The server's children: /proc's list of them on Linux, else from the whole process table. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    const table = processTable();
    return table ? [...table].filter(([, info]) => info.ppid === pid).map(([child]) => child) : [];
  }
}

/** True or false as the process table says; undefined where it cannot say (no /proc and no ps). */
export function workerAlive(pid: number, command: RegExp): boolean {
  return childrenOf(pid).some((child) => {
    const words = commandLine(child);
    return words !== undefined && words.some((w) => command.test(w)) && !isZombie(child);
  });
}
