/**
 * Whether a server still has the worker process it answers through
 * (typescript-language-server's tsserver): a child of the server's process
 * whose command line matches, and that has not exited. Asked when such a
 * server answers with nothing, since a server whose worker died answers
 * nothing to everything.
 */
import { readFileSync } from 'node:fs';
import {
  CancellationTokenSource,
  ExecuteCommandRequest,
  type MessageConnection,
} from 'vscode-languageserver-protocol/node';
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

/** An answer that says nothing: what a server whose worker died gives to every question. */
const isEmpty = (result: unknown) =>
  result === null || result === undefined || (Array.isArray(result) && result.length === 0);

/**
 * Whether an answer came from a server whose worker is gone: asked only of
 * an empty answer from a server with a worker. Gone from the process table
 * (or a zombie) is gone at once. One still listed may be dying (out of its
 * heap, it runs on for a moment after its server has answered nothing), so
 * the worker itself is asked (a round trip through the server to it,
 * workerAnswers): a worker that answers is alive, and one that dies meanwhile is
 * logged by its server before the server answers (server-answers.ts sees
 * that line first). No sleep: a round trip costs what the worker's answer
 * costs, and a real empty answer no more than that.
 */
export async function workerGone(
  spec: ServerSpec,
  pid: number | undefined,
  result: unknown,
  connection: MessageConnection,
): Promise<boolean> {
  if (!spec.worker || pid === undefined || !isEmpty(result)) return false;
  if (!workerAlive(pid, spec.worker.command)) return true;
  return !(await workerAnswers(connection, spec));
}

/** How long an empty answer's probe of the server's worker waits for it before taking the answer as it is. */
const WORKER_PROBE_MS = 2_000;

/**
 * Whether the server's worker answers its probe (the spec's command, sent
 * straight on the connection, so its own empty answer is not checked
 * again). No answer within WORKER_PROBE_MS (a worker busy with another
 * question's long request) counts as alive.
 */
export async function workerAnswers(connection: MessageConnection, spec: ServerSpec): Promise<boolean> {
  const probe = spec.worker?.probe;
  if (!probe) return true;
  const source = new CancellationTokenSource();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), WORKER_PROBE_MS);
  });
  const answer = connection
    .sendRequest(ExecuteCommandRequest.type, { command: probe.command, arguments: probe.arguments }, source.token)
    .catch(() => 'failed' as const);
  try {
    const result = await Promise.race([answer, late]);
    if (result === 'late') source.cancel();
    // An error is an answer too (a tsserver without `status` refuses it): only the server's word that nothing
    // stands behind it is the worker's death.
    return result === 'late' || result === 'failed' || probe.answered(result);
  } finally {
    clearTimeout(timer);
    source.dispose();
  }
}
