/**
 * The socket: one JSON line in, one JSON line out per connection. A
 * connection that closes early (the command was killed) cancels its request.
 */
import type { Socket } from 'bun';
import { BUILD } from '../build-info';
import { runCommandLine } from '../commands/road';
import { answer } from '../engine/answer';
import type { HandlerContext } from '../engine/handlers/context';
import { LspqError, toErrorPayload } from '../errors';
import type { ServerPool } from '../lsp/manager';
import { PROTOCOL_VERSION, type CommandLine, type DaemonStatus, type Envelope, type Reply } from '../protocol/messages';
import type { Watchers } from './watch';

export interface ListenOptions {
  socket: string;
  pool: ServerPool;
  watchers: Watchers;
  log: (line: string) => void;
  startedAt: number;
  onActivity: () => void;
  onServersChanged: () => void;
  stop: () => void;
}

interface Connection {
  buffer: string;
  /** Streaming: a character of a path or variable may span two chunks. */
  decoder: TextDecoder;
  abort: AbortController;
  out: Buffer | undefined;
  handled: boolean;
  /** The reply is written (or being written): closing now cancels nothing. */
  answered: boolean;
}

export interface DaemonServer {
  close(): void;
  readonly inFlight: number;
}

function memoryOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string;
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

function status(o: ListenOptions): DaemonStatus {
  const now = Date.now();
  return {
    pid: process.pid,
    build: BUILD.id,
    socket: o.socket,
    uptimeSeconds: Math.round((now - o.startedAt) / 1000),
    memoryBytes: process.memoryUsage().rss,
    servers: o.pool.list().map((s) => ({
      id: s.client.spec.id,
      root: s.client.root,
      binary: s.binary,
      env: s.envKey,
      pid: s.client.pid,
      uptimeSeconds: Math.round((now - s.client.startedAt) / 1000),
      memoryBytes: memoryOf(s.client.pid),
      requests: s.client.requestsAnswered,
      state: s.inFlight > 0 ? 'busy' : s.client.busy ? `loading (${s.client.progressTitles.join(', ')})` : 'idle',
    })),
    broken: o.pool.brokenList(),
  };
}

export function listen(o: ListenOptions): DaemonServer {
  let inFlight = 0;

  const send = (socket: Socket<Connection>, reply: Reply) => {
    socket.data.answered = true;
    socket.data.out = Buffer.from(`${JSON.stringify(reply)}\n`);
    flush(socket);
  };
  // Bun may accept only part of a large write: the rest waits for 'drain'.
  const flush = (socket: Socket<Connection>) => {
    const out = socket.data.out;
    if (!out) return;
    const n = socket.write(out);
    if (n >= out.length) {
      socket.data.out = undefined;
      socket.end();
    } else if (n > 0) socket.data.out = out.subarray(n);
  };

  const handle = async (socket: Socket<Connection>, text: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return send(socket, { ok: false, error: { code: 'daemon', message: 'the daemon got an unreadable request' } });
    }
    const request = envelope.request;
    // Control requests work across builds, so a command can stop a daemon it cannot talk to.
    if (request.op === 'ping') return send(socket, { ok: true, pid: process.pid, build: BUILD.id });
    if (request.op === 'stop') {
      send(socket, { ok: true, pid: process.pid, build: BUILD.id });
      return o.stop();
    }
    if (envelope.protocol !== PROTOCOL_VERSION || envelope.build !== BUILD.id) {
      return send(socket, { ok: false, mismatch: { build: BUILD.id, protocol: PROTOCOL_VERSION } });
    }
    o.onActivity();
    if (request.op === 'status') return send(socket, { ok: true, status: status(o) });
    inFlight++;
    const before = o.pool.size;
    const started = performance.now();
    const line = request.line;
    try {
      // Let file events already queued by the kernel arrive before syncing.
      await new Promise((r) => setImmediate(r));
      const output = await runCommandLine(line, {
        answer: (query) => answer(query, handlerContext(socket, line)),
        report: (err) => {
          if (!(err instanceof LspqError)) o.log(`internal error for ${line.command}: ${(err as Error).stack ?? String(err)}`);
        },
      });
      send(socket, { ok: true, output });
      o.log(`${line.command} (exit ${output.exit}) answered in ${(performance.now() - started).toFixed(1)} ms`);
    } catch (err) {
      // runCommandLine turns every failure into output; this is a failure of the daemon itself.
      o.log(`internal error for ${line.command}: ${(err as Error).stack ?? String(err)}`);
      if (!socket.data.abort.signal.aborted) send(socket, { ok: false, error: toErrorPayload(err) });
    } finally {
      inFlight--;
      o.onActivity();
      if (o.pool.size !== before) o.onServersChanged();
    }
  };

  const handlerContext = (socket: Socket<Connection>, line: CommandLine): HandlerContext => ({
    pool: o.pool,
    signal: socket.data.abort.signal,
    log: o.log,
    beforeRequest: (session) => o.watchers.flush(session),
    // Progress only for a person at a terminal; a line the socket cannot take now is simply skipped.
    progress: line.progress ? (text) => void (socket.data.out ? undefined : socket.write(`${JSON.stringify({ progress: text })}\n`)) : undefined,
  });

  const server = Bun.listen<Connection>({
    unix: o.socket,
    socket: {
      open(socket) {
        socket.data = { buffer: '', decoder: new TextDecoder(), abort: new AbortController(), out: undefined, handled: false, answered: false };
      },
      data(socket, chunk) {
        if (socket.data.handled) return;
        socket.data.buffer += socket.data.decoder.decode(chunk, { stream: true });
        const end = socket.data.buffer.indexOf('\n');
        if (end < 0) return;
        socket.data.handled = true;
        void handle(socket, socket.data.buffer.slice(0, end));
      },
      drain(socket) {
        flush(socket);
      },
      close(socket) {
        // The command went away (Ctrl-C, killed) before its answer: cancel what it asked.
        if (!socket.data.answered) socket.data.abort.abort();
      },
      error(socket, err) {
        o.log(`socket error: ${err.message}`);
        socket.data.abort.abort();
      },
    },
  });
  return {
    close: () => server.stop(true),
    get inFlight() {
      return inFlight;
    },
  };
}
