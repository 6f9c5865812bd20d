/** A server's process: started in a process group of its own, and that whole group stopped. */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { boxed } from '../box/command';
import { LspqError, messageOf } from '../common/errors';
import type { ServerSpec } from './servers/spec';

export const KILL_GRACE_MS = 1_000;

/** Starts the server; fails with the install hint when it cannot start at all. */
export async function spawnServer(
  spec: ServerSpec,
  binary: string,
  root: string,
  env: Record<string, string>,
): Promise<ChildProcessWithoutNullStreams> {
  let proc: ChildProcessWithoutNullStreams;
  const own = { ...env, ...spec.env };
  // A workspace not trusted: the server runs as configured, in its box (src/box/).
  const run = spec.contained
    ? boxed([binary, ...spec.args], spec.contained, { purpose: spec.id, root, binary, cwd: root, env: own })
    : { argv: [binary, ...spec.args], env: own };
  const [program = binary, ...args] = run.argv;
  try {
    // Its own process group, so shutdown can kill helpers the server spawned.
    proc = spawn(program, args, {
      cwd: root,
      env: run.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (err) {
    throw new LspqError('server_failed', `could not start ${spec.id} (${binary}): ${messageOf(err)}`);
  }
  await new Promise<void>((resolve, reject) => {
    proc.once('spawn', resolve);
    proc.once('error', (err) =>
      reject(new LspqError('server_failed', `could not start ${spec.id} (${binary}): ${err.message}; ${spec.install}`)),
    );
  });
  return proc;
}

/**
 * Stops the process and its group: a moment to exit on its own (after
 * shutdown and exit), then SIGTERM, then SIGKILL; resolves once it is gone.
 * Helpers the server started (tsserver, cargo check) share its group.
 */
export async function killGroup(proc: ChildProcess, alive: boolean): Promise<void> {
  const pid = proc.pid;
  if (pid === undefined) return;
  const gone = alive ? new Promise<void>((resolve) => proc.once('exit', () => resolve())) : Promise.resolve();
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // The group is already empty.
    }
  };
  const graceful = await Promise.race([gone.then(() => true), Bun.sleep(KILL_GRACE_MS / 2).then(() => false)]);
  if (!graceful) signal('SIGTERM');
  const terminated = await Promise.race([gone.then(() => true), Bun.sleep(KILL_GRACE_MS).then(() => false)]);
  signal(terminated ? 'SIGTERM' : 'SIGKILL');
  await gone;
}
