/**
 * The command's side of the socket: one JSON line out, one back. Starts the
 * daemon when none answers, replaces one from another build, and retries a
 * question once if the daemon died under it. Kept free of the LSP library:
 * this is the path every command pays for.
 */
import { BUILD } from '../build-info';
import { runsCompiled } from '../entries';
import { fromErrorPayload, LspqError } from '../errors';
import { PROTOCOL_VERSION, type ControlRequest, type Envelope, type ProgressLine, type QueryRequest, type Reply } from '../protocol/messages';
import { processRuns } from '../protocol/process';
import { ensureSocketDir, socketDirSafe, socketPath, stateFile } from '../protocol/socket';

export const DAEMON_START_TIMEOUT_MS = 10_000;
const POLL_MS = 5;

class ConnectFailed extends Error {}
class ConnectionLost extends Error {}

/**
 * One request on a fresh connection; rejects with ConnectFailed when nobody
 * listens. The socket folder is checked while the connection opens, and
 * nothing (the request carries the caller's environment) is sent before
 * the check passes.
 */
function roundTrip(path: string, envelope: Envelope, onProgress?: (p: ProgressLine['progress']) => void): Promise<Reply> {
  // TextEncoder/TextDecoder, not Buffer: the first use of Buffer cost 0.2 ms.
  const payload = new TextEncoder().encode(`${JSON.stringify(envelope)}\n`);
  const decoder = new TextDecoder();
  const folderSafe = socketDirSafe(path);
  folderSafe.catch(() => undefined); // reported through 'open' below, or moot when nobody listens
  return new Promise<Reply>((resolve, reject) => {
    let buffer = '';
    let settled = false;
    let offset = 0;
    const settle = (fn: () => void) => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    const flush = (socket: { write(data: Uint8Array): number }) => {
      // Bun may take only part of a large write; the rest goes on 'drain'.
      while (offset < payload.length) {
        const n = socket.write(payload.subarray(offset));
        if (n <= 0) return;
        offset += n;
      }
    };
    Bun.connect({
      unix: path,
      socket: {
        binaryType: 'uint8array',
        open: (socket) =>
          void folderSafe.then(
            (exists) => (exists ? flush(socket) : settle(() => reject(new ConnectFailed('no socket folder')))),
            (err: unknown) => {
              settle(() => reject(err));
              socket.end();
            },
          ),
        drain: (socket) => flush(socket),
        data: (socket, chunk) => {
          buffer += decoder.decode(chunk, { stream: true }); // a character may span two chunks
          for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
            const line = buffer.slice(0, end);
            buffer = buffer.slice(end + 1);
            let message: Reply | ProgressLine;
            try {
              message = JSON.parse(line) as Reply | ProgressLine;
            } catch {
              settle(() => reject(new ConnectionLost('unreadable reply')));
              socket.end();
              return;
            }
            if ('progress' in message) {
              onProgress?.(message.progress);
              continue;
            }
            settle(() => resolve(message as Reply));
            socket.end();
            return;
          }
        },
        close: () => settle(() => reject(new ConnectionLost('closed'))),
        error: (_socket, err) => settle(() => reject(new ConnectionLost(err.message))),
        connectError: (_socket, err) => settle(() => reject(new ConnectFailed(err.message))),
      },
    }).catch((err: Error) => settle(() => reject(new ConnectFailed(err.message))));
  });
}

function envelope(request: QueryRequest | ControlRequest): Envelope {
  return { protocol: PROTOCOL_VERSION, build: BUILD.id, request };
}

/** The command that starts the daemon: this same binary (or script) with `__daemon`. */
function daemonArgv(): string[] {
  return runsCompiled() ? [process.execPath, '__daemon'] : [process.execPath, Bun.main, '__daemon'];
}

async function spawnDaemon(path: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [cmd, ...args] = daemonArgv();
  // Detached into its own session: it outlives this command, not the user's terminal signals.
  const child = spawn(cmd!, args, { detached: true, stdio: 'ignore', env: { ...process.env, LSPQ_SOCKET: path } });
  child.unref();
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
    const reply = await roundTrip(path, envelope({ op: 'ping' }));
    return reply.ok;
  } catch {
    return false;
  }
}

/** Starts a daemon and waits until it answers. Several commands may race here; the daemon's lock lets one win. */
export async function startDaemon(path: string): Promise<void> {
  ensureSocketDir(path);
  await spawnDaemon(path);
  if (!(await waitUntil(() => answers(path), DAEMON_START_TIMEOUT_MS))) {
    throw new LspqError(
      'daemon',
      `the daemon did not start within ${DAEMON_START_TIMEOUT_MS / 1000}s; see ${stateFile(path, 'daemon.log')}, or use --no-daemon`,
    );
  }
}

/** Asks a daemon to stop and waits until it has exited (its servers stop first). True if one was running. */
export async function stopDaemon(path: string): Promise<boolean> {
  let pid: number | undefined;
  try {
    const reply = await roundTrip(path, envelope({ op: 'stop' }));
    if (reply.ok) pid = (reply.result as { pid?: number }).pid;
  } catch (err) {
    if (err instanceof ConnectFailed) return false;
  }
  const { existsSync } = await import('node:fs');
  await waitUntil(async () => !existsSync(path) && (pid === undefined || !processRuns(pid)), DAEMON_START_TIMEOUT_MS);
  return true;
}

/** Sends a request, starting or replacing the daemon as needed. */
export async function askDaemon(
  request: QueryRequest | ControlRequest,
  options: { start?: boolean; onProgress?: (p: ProgressLine['progress']) => void } = {},
): Promise<unknown> {
  const path = socketPath(process.env);
  const start = options.start ?? true;
  let lostOnce = false;
  for (let attempt = 0; attempt < 4; attempt++) {
    let reply: Reply;
    try {
      reply = await roundTrip(path, envelope(request), options.onProgress);
    } catch (err) {
      if (err instanceof LspqError) throw err;
      if (err instanceof ConnectFailed) {
        ensureSocketDir(path); // creates the folder, or refuses one that is not safe
        if (!start) return undefined;
        await startDaemon(path);
        continue;
      }
      // The daemon died under the question: ask a fresh one, once.
      if (lostOnce || request.op === 'stop') throw new LspqError('daemon', `the daemon stopped while answering (${(err as Error).message}); run the command again, or see 'lspq daemon logs'`);
      lostOnce = true;
      continue;
    }
    if (reply.ok) return reply.result;
    if ('mismatch' in reply) {
      // A daemon from another build: replace it, never talk across builds.
      await stopDaemon(path);
      if (!start) return undefined;
      await startDaemon(path);
      continue;
    }
    throw fromErrorPayload(reply.error);
  }
  throw new LspqError('daemon', `could not reach a daemon at ${path}; run 'lspq daemon restart' or use --no-daemon`);
}
