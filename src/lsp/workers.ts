/**
 * Whether a server still has the worker process it answers through
 * (typescript-language-server's tsserver): a child of the server's process
 * whose command line matches, and that has not exited. Asked when such a
 * server answers with nothing, since a server whose worker died answers
 * nothing to everything.
 */
import { readFileSync } from 'node:fs';
import { commandLine, isZombie, processTable } from '../common/process-table';
import type { ServerSpec } from './servers/spec';

/** The server's children: /proc's list of them on Linux, else from the whole process table. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    const table = processTable();
    return table ? [...table].filter(([, info]) => info.ppid === pid).map(([child]) => child) : [];
  }
}

/** Whether such a child runs, as the process table says (none found where it cannot say). */
export function workerAlive(pid: number, command: RegExp): boolean {
  return childrenOf(pid).some((child) => {
    const words = commandLine(child);
    return words?.some((w) => command.test(w)) === true && !isZombie(child);
  });
}

/**
 * How long an empty answer from a server with a worker waits for word of
 * the worker's death: 13 ms measured on a quiet machine, over 50 ms once in
 * four whole runs of the suite beside other work.
 */
const WORKER_DEATH_GRACE_MS = 100;

/** An answer that says nothing: what a server whose worker died gives to every question. */
const isEmpty = (result: unknown) =>
  result === null || result === undefined || (Array.isArray(result) && result.length === 0);

/**
 * Whether an answer came from a server whose worker is gone: asked only of
 * an empty answer from a server with a worker. A worker dying (out of its
 * heap) answers nothing a moment before its exit is logged: while it still
 * runs, that moment is awaited, and the log line decides (server-answers.ts).
 */
export async function workerGone(spec: ServerSpec, pid: number | undefined, result: unknown): Promise<boolean> {
  if (!spec.worker || pid === undefined || !isEmpty(result)) return false;
  if (!workerAlive(pid, spec.worker.command)) return true;
  await Bun.sleep(WORKER_DEATH_GRACE_MS);
  return false;
}
