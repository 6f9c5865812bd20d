/**
 * The client of the daemon's socket, used by both processes: the command
 * asks its questions through it (cli/forward.ts), and `lspq daemon`
 * controls the daemon with it. One JSON line out, one back (progress lines
 * may come first). Starts the daemon when none answers, replaces one from
 * another build, and retries a command line once if the daemon died under
 * it. Kept free of the engine: this is the path every question pays for.
 */
import { BUILD } from '../common/build-info';
import { selfArgv } from '../bundles';
import { DEFAULT_TIMEOUT_MS } from '../common/messages';
import { fromErrorPayload, LspqError, messageOf } from '../common/errors';
import { PROTOCOL_VERSION, type DaemonStatus, type Envelope, type Reply, type Request } from '../common/messages';
import { processRuns } from '../common/process';
import { ConnectFailed, NoAnswer, roundTrip } from './round-trip';

export { roundTrip, type Stream } from './round-trip';
import { ensureSocketDir, socketPath, stateFile } from '../common/socket';

export const DAEMON_START_TIMEOUT_MS = 15_000;
/** How long a command that lost the daemon's lock waits for the winner to answer before trying to start one again. */
const LOCK_RETRY_MS = 300;
const POLL_MS = 5;
/** A live daemon answers control requests at once; one that does not is wedged (stopped, or stuck). */
export const CONTROL_WAIT_MS = 5_000;
/** Past a question's own --timeout (which the daemon enforces), how long the command still waits. */
export const ANSWER_GRACE_MS = 5_000;

/** The daemon died under a question that must not be sent twice (it may have written files). */
export class DaemonLost extends Error {}

export function envelope(request: Request): Envelope {
  return { protocol: PROTOCOL_VERSION, build: BUILD.id, request };
}

/** The command that starts the daemon: this same binary (or script) with `__daemon`. */
function daemonArgv(): [string, ...string[]] {
  return [...selfArgv(), '__daemon'];
}

/**
 * Starts a daemon; resolves true once it says it listens (a word on a pipe,
 * so no poll of the socket adds its interval to a cold answer), false when
 * it ends without saying so (another command's daemon won the lock).
 */
async function spawnDaemon(path: string): Promise<boolean> {
  const { spawn } = await import('node:child_process');
  const [cmd, ...args] = daemonArgv();
  // Detached into its own session: it outlives this command, not the user's terminal signals.
  const child = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, LSPQ_SOCKET: path },
  });
  child.unref();
  const stdout = child.stdout;
  const said = await new Promise<boolean>((resolve) => {
    let text = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      stdout.removeAllListeners();
      // The pipe is not this command's to keep.
      stdout.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), DAEMON_START_TIMEOUT_MS);
    stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('ready\n')) done(true);
    });
    stdout.once('close', () => done(text.includes('ready\n')));
    stdout.once('error', () => done(false));
  });
  return said;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await Bun.sleep(POLL_MS);
  }
  return false;
}

async function answers(path: string): Promise<boolean> {
  try {
    return (await roundTrip(path, envelope({ op: 'ping' }), CONTROL_WAIT_MS)).ok;
  } catch {
    return false;
  }
}

/**
 * Starts a daemon and waits until it answers. Several commands may race
 * here; the daemon's lock lets one win. A daemon still stopping holds the
 * lock for a few seconds more: the start is tried again until it lets go.
 */
export async function startDaemon(path: string): Promise<void> {
  ensureSocketDir(path).close(); // made, or refused: the daemon opens it for itself
  const end = Date.now() + DAEMON_START_TIMEOUT_MS;
  while (Date.now() < end) {
    if (await spawnDaemon(path)) return;
    if (await waitUntil(() => answers(path), LOCK_RETRY_MS)) return;
  }
  throw new LspqError(
    'daemon',
    `the daemon did not start within ${DAEMON_START_TIMEOUT_MS / 1000}s; see ${stateFile(path, 'daemon.log')}, or use --no-daemon`,
  );
}

/** The pid a daemon wrote beside its socket, if that process is still an lspq daemon. */
function daemonPid(path: string): number | undefined {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  try {
    const pid = Number(readFileSync(stateFile(path, 'daemon.pid'), 'utf8').trim());
    // The pid may have been reused since: only a process that is a daemon is one.
    const { commandLine } = require('../common/process-table') as typeof import('../common/process-table');
    const argv = commandLine(pid) ?? [];
    return Number.isSafeInteger(pid) && pid > 0 && argv.includes('__daemon') && processRuns(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Ends a daemon that takes connections but does not answer (stopped with
 * SIGSTOP, or stuck): SIGTERM lets it stop its servers; SIGKILL if it cannot,
 * and then its servers notice their parent is gone.
 */
async function endUnresponsive(path: string, pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {}
  };
  signal('SIGTERM');
  signal('SIGCONT');
  if (!(await waitUntil(async () => !processRuns(pid), CONTROL_WAIT_MS))) {
    signal('SIGKILL');
    await waitUntil(async () => !processRuns(pid), CONTROL_WAIT_MS);
  }
  const { rmSync } = require('node:fs') as typeof import('node:fs');
  rmSync(path, { force: true }); // the next daemon's lock is free; its socket must be too
}

/** Asks a daemon to stop and waits until it has exited (its servers stop first). True if one was running. */
export async function stopDaemon(path: string): Promise<boolean> {
  let pid: number | undefined;
  try {
    const reply = await roundTrip(path, envelope({ op: 'stop' }), CONTROL_WAIT_MS);
    if (reply.ok && 'pid' in reply) pid = reply.pid;
  } catch (err) {
    if (err instanceof ConnectFailed) return false;
    if (err instanceof NoAnswer) {
      const wedged = daemonPid(path);
      if (wedged !== undefined) await endUnresponsive(path, wedged);
      return true;
    }
  }
  // It stops its servers first, each within its grace; one that outlasts all of them is killed.
  const gone = await waitUntil(async () => pid === undefined || !processRuns(pid), DAEMON_START_TIMEOUT_MS);
  if (!gone && pid !== undefined) await endUnresponsive(path, pid);
  return true;
}

/** How long the command waits for the daemon's reply before calling it wedged. */
export function patience(request: Request): number {
  if (request.op !== 'run') return CONTROL_WAIT_MS;
  return (request.line.timeoutMs ?? DEFAULT_TIMEOUT_MS) + ANSWER_GRACE_MS;
}

/**
 * Sends a request, starting or replacing the daemon as needed; undefined
 * when none runs and `start` is false (or, with `keepOther`, when the one
 * running is of another build, which is then left as it is).
 */
export async function ask(
  request: Request,
  options: { start: boolean; onProgress?: (text: string) => void; once?: boolean; keepOther?: boolean },
): Promise<Reply | undefined> {
  const path = socketPath(process.env);
  let lostOnce = false;
  for (let attempt = 0; attempt < 4; attempt++) {
    let reply: Reply;
    try {
      reply = await roundTrip(path, envelope(request), patience(request), options.onProgress);
    } catch (err) {
      if (err instanceof LspqError) throw err;
      if (err instanceof ConnectFailed) {
        ensureSocketDir(path).close(); // creates the folder, or refuses one that is not safe
        if (!options.start) return undefined;
        await startDaemon(path);
        continue;
      }
      if (err instanceof NoAnswer) {
        const pid = daemonPid(path);
        // An edit is never left unknown: the wedged daemon is ended, and the next one settles its journal.
        if (options.once) {
          await stopDaemon(path);
          throw new DaemonLost(
            `the daemon${pid ? ` (pid ${pid})` : ''} took it but did not answer (${err.message}), so it was ended`,
          );
        }
        throw new LspqError(
          'daemon',
          `the daemon${pid ? ` (pid ${pid})` : ''} took the question but did not answer (${err.message}); run 'lspq daemon restart', or use --no-daemon`,
        );
      }
      // The daemon died under the question: ask a fresh one, once; a question that may have written, never.
      if (options.once) throw new DaemonLost(messageOf(err));
      if (lostOnce || request.op === 'stop')
        throw new LspqError(
          'daemon',
          `the daemon stopped while answering (${messageOf(err)}); run the command again, or see 'lspq daemon logs'`,
        );
      lostOnce = true;
      continue;
    }
    if (!reply.ok && 'mismatch' in reply) {
      if (options.keepOther && !options.start) return undefined;
      // A daemon from another build: replace it, never talk across builds.
      await stopDaemon(path);
      if (!options.start) return undefined;
      await startDaemon(path);
      continue;
    }
    if (!reply.ok) throw fromErrorPayload(reply.error);
    return reply;
  }
  throw new LspqError('daemon', `could not reach a daemon at ${path}; run 'lspq daemon restart' or use --no-daemon`);
}

/** The running daemon's status; undefined when none runs (none is started for this). */
export async function askStatus(): Promise<DaemonStatus | undefined> {
  const reply = await ask({ op: 'status' }, { start: false });
  return reply && 'status' in reply ? reply.status : undefined;
}
