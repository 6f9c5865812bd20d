/**
 * The socket: one JSON line in, one JSON line out per connection. A
 * connection that closes early (the command was killed) cancels its request.
 */
import type { Socket } from 'bun';
import { BUILD } from '../build-info';
import { LineQueue, runBatchLine } from '../commands/batch';
import { runCommandLine } from '../commands/road';
import { COMMANDS, isCommand } from '../commands/table';
import { answer } from '../engine/answer';
import type { EngineContext } from '../engine/handlers/context';
import { recordOutput, takeOutcome } from '../engine/journal';
import { LspqError, toErrorPayload, withNotes } from '../errors';
import { tellChanges } from '../lsp/file-events';
import type { ServerPool } from '../lsp/manager';
import { type CommandLine, type DaemonStatus, PROTOCOL_VERSION, type Reply } from '../protocol/messages';
import type { Op, QueryFor } from '../queries';
import { BatchInputShape, EnvelopeHeadShape, EnvelopeShape, MAX_LINE_BYTES, readLine } from '../protocol/socket-shapes';
import type { Watchers } from './watch';

export interface ListenOptions {
  socket: string;
  pool: ServerPool;
  watchers: Watchers;
  /** Where edits are journaled: asked after by a command whose daemon died under its edit. */
  journalDir: string;
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
  /** Written but not yet taken by the socket. */
  out: Buffer | undefined;
  /** End the connection once `out` is written: the reply was the last line. */
  ending: boolean;
  handled: boolean;
  /** The reply is written (or being written): closing now cancels nothing. */
  answered: boolean;
  /** A batch's request lines, as they arrive after its command line. */
  input: LineQueue | undefined;
}

export interface DaemonServer {
  /** Takes no new connection; the questions under way go on. */
  close(): void;
  /** Cancels every question under way (a daemon stopping that waited long enough). */
  cancelAll(): void;
  readonly inFlight: number;
}

function status(o: ListenOptions): DaemonStatus {
  const now = Date.now();
  const memory = o.pool.memory();
  return {
    pid: process.pid,
    build: BUILD.id,
    socket: o.socket,
    uptimeSeconds: Math.round((now - o.startedAt) / 1000),
    memoryBytes: process.memoryUsage().rss,
    heapBytes: process.memoryUsage().heapUsed,
    servers: o.pool.list().map((s) => ({
      id: s.client.spec.id,
      root: s.client.root,
      binary: s.binary,
      env: s.envKey,
      pid: s.client.pid,
      uptimeSeconds: Math.round((now - s.client.startedAt) / 1000),
      memoryBytes: memory.each.get(s.key) ?? null,
      requests: s.client.requestsAnswered,
      state: s.inFlight > 0 ? 'busy' : s.client.busy ? `loading (${s.client.progressTitles.join(', ')})` : 'idle',
    })),
    broken: o.pool.brokenList(),
    serversMemoryBytes: memory.total,
    memoryLimitBytes: memory.limit,
  };
}

export function listen(o: ListenOptions): DaemonServer {
  let inFlight = 0;
  const open = new Set<Socket<Connection>>();

  /** Queues text for the socket; Bun may take only part of a large write, and the rest goes on 'drain'. */
  const write = (socket: Socket<Connection>, text: string) => {
    const bytes = Buffer.from(text);
    socket.data.out = socket.data.out ? Buffer.concat([socket.data.out, bytes]) : bytes;
    flush(socket);
  };
  const send = (socket: Socket<Connection>, reply: Reply) => {
    socket.data.answered = true;
    socket.data.ending = true;
    write(socket, `${JSON.stringify(reply)}\n`);
  };
  const flush = (socket: Socket<Connection>) => {
    const out = socket.data.out;
    if (!out) return;
    const n = socket.write(out);
    if (n >= out.length) {
      socket.data.out = undefined;
      if (socket.data.ending) socket.end();
    } else if (n > 0) socket.data.out = out.subarray(n);
  };

  /** One line of a batch's input: a request for its queue, or the end. */
  const takeInput = (input: LineQueue, text: string) => {
    const message = readLine(BatchInputShape, text);
    // A line that is not one is answered as a bad request, in its place.
    if (!message.ok) return input.push(text);
    if ('end' in message.value) input.end();
    else input.push(message.value.input);
  };

  const refuse = (socket: Socket<Connection>, why: string) => {
    o.log(`refused a malformed request: ${why}`);
    send(socket, { ok: false, error: { code: 'daemon', message: `the daemon got a malformed request (${why})` } });
  };

  const handle = async (socket: Socket<Connection>, text: string) => {
    const head = readLine(EnvelopeHeadShape, text);
    if (!head.ok) return refuse(socket, head.why);
    const op = head.value.request.op;
    // Control requests work across builds, so a command can stop a daemon it cannot talk to.
    if (op === 'ping') return send(socket, { ok: true, pid: process.pid, build: BUILD.id });
    if (op === 'stop') {
      send(socket, { ok: true, pid: process.pid, build: BUILD.id });
      return o.stop();
    }
    if (head.value.protocol !== PROTOCOL_VERSION || head.value.build !== BUILD.id) {
      return send(socket, { ok: false, mismatch: { build: BUILD.id, protocol: PROTOCOL_VERSION } });
    }
    const envelope = readLine(EnvelopeShape, text);
    if (!envelope.ok) return refuse(socket, envelope.why);
    const request = envelope.value.request;
    o.onActivity();
    if (request.op === 'status') return send(socket, { ok: true, status: status(o) });
    if (request.op === 'outcome')
      return send(socket, { ok: true, outcome: takeOutcome(o.journalDir, request.id) ?? null });
    if (request.op !== 'run') return refuse(socket, `request.op: '${request.op}' is answered above`);
    // Before any await: the lines after the command line are a batch's input, taken as they arrive.
    const streams = isCommand(request.line.command) && 'stream' in COMMANDS[request.line.command];
    if (streams) socket.data.input = new LineQueue();
    inFlight++;
    const before = o.pool.size;
    const started = performance.now();
    const line = request.line;
    const notes = new Set<string>();
    try {
      // Where the kernel's queue is not read directly, let the events it already holds arrive first.
      if (!o.watchers.immediate) await new Promise((r) => setImmediate(r));
      const host = {
        answer: <O extends Op>(query: QueryFor<O>) => answer(query, handlerContext(socket, line, notes)),
        report: (err: unknown) => {
          if (!(err instanceof LspqError))
            o.log(`internal error for ${line.command}: ${(err as Error).stack ?? String(err)}`);
        },
      };
      const input = socket.data.input;
      const output = input
        ? await runBatchLine(
            line,
            input,
            (answerLine) => write(socket, `${JSON.stringify({ answer: answerLine.trimEnd() })}\n`),
            host,
          )
        : withNotes(await runCommandLine(line, host), notes);
      // Kept with the edit's outcome before it is sent: a daemon killed now still tells the command all of it.
      if (line.editId) recordOutput(o.journalDir, line.editId, output);
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

  const handlerContext = (socket: Socket<Connection>, line: CommandLine, notes: Set<string>): EngineContext => ({
    warn: (note) => notes.add(note),
    pool: o.pool,
    signal: socket.data.abort.signal,
    log: o.log,
    journalDir: o.journalDir,
    beforeRequest: async (session) => {
      const told = await tellChanges(session, o.watchers);
      if (told > 0) o.log(`${session.client.spec.id}: ${told} watched file change(s) under ${session.client.root}`);
    },
    // Progress only for a person at a terminal; a line the socket cannot take now is simply skipped.
    progress: line.progress
      ? (text) => void (socket.data.out ? undefined : write(socket, `${JSON.stringify({ progress: text })}\n`))
      : undefined,
  });

  const server = Bun.listen<Connection>({
    unix: o.socket,
    socket: {
      open(socket) {
        open.add(socket);
        socket.data = {
          buffer: '',
          decoder: new TextDecoder(),
          abort: new AbortController(),
          out: undefined,
          ending: false,
          handled: false,
          answered: false,
          input: undefined,
        };
      },
      data(socket, chunk) {
        const d = socket.data;
        if (d.handled && !d.input) return; // one request per connection, unless it is a batch
        d.buffer += d.decoder.decode(chunk, { stream: true });
        for (let end = d.buffer.indexOf('\n'); end >= 0; end = d.buffer.indexOf('\n')) {
          const text = d.buffer.slice(0, end);
          d.buffer = d.buffer.slice(end + 1);
          if (!d.handled) {
            d.handled = true;
            // Whatever a request does, it fails alone: the daemon and every other question go on.
            handle(socket, text).catch((err: unknown) => {
              o.log(`internal error: ${(err as Error).stack ?? String(err)}`);
              if (!socket.data.answered) send(socket, { ok: false, error: toErrorPayload(err) });
            });
          } else if (d.input) takeInput(d.input, text);
          else return;
        }
        // A line longer than any request could be is refused, not buffered without end.
        if (d.buffer.length > MAX_LINE_BYTES) {
          d.buffer = '';
          if (d.handled) {
            d.input?.end();
            socket.end();
          } else {
            d.handled = true;
            refuse(socket, `a line longer than ${MAX_LINE_BYTES / 1_048_576} MB`);
          }
        }
      },
      drain(socket) {
        flush(socket);
      },
      close(socket) {
        open.delete(socket);
        // The command went away (Ctrl-C, killed) before its answer: cancel what it asked, and a batch takes no more.
        if (!socket.data.answered) socket.data.abort.abort();
        socket.data.input?.end();
      },
      error(socket, err) {
        o.log(`socket error: ${err.message}`);
        socket.data.abort.abort();
      },
    },
  });
  return {
    close: () => server.stop(false),
    cancelAll: () => {
      for (const socket of open) socket.data.abort.abort();
    },
    get inFlight() {
      return inFlight;
    },
  };
}
