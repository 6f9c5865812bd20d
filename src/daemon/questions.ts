/**
 * A request the daemon reads: control requests (ping, stop, status, an
 * edit's outcome) answered at once, and command lines run on the one path with
 * the engine's handlers, each failing alone.
 */
import { ANSWERERS } from '../commands/handlers';
import { COMMANDS, isCommand } from '../commands/list';
import type { Op, Operations, Question } from '../commands/operations';
import { type Host, runCommandLine, runStreamLine } from '../commands/run-command-line';
import { strayRejection } from '../engine/fault';
import { dispatch } from '../engine/dispatch';
import type { EngineContext } from '../engine/context';
import { recordOutput, takeOutcome, unsettled } from '../engine/journal';

import { ServerTime } from '../lsp/request-options';
import { tellChanges } from '../lsp/file-events';
import { BUILD } from '../common/build-info';
import { type CommandOutput, LspqError, toErrorPayload, withNotes, stackOf } from '../common/errors';
import { LineQueue } from '../common/line-queue';
import { type CommandLine, type EditOutcome, PROTOCOL_VERSION } from '../common/messages';
import {
  BatchInputShape,
  checkMessage,
  EnvelopeHeadShape,
  EnvelopeShape,
  parseLine,
  readLine,
} from '../common/socket-shapes';
import { type DaemonSocket, send, write } from './connection';
import { type ListenOptions, status } from './status';
import { nextTurn } from '../common/turns';

/**
 * Where a question's time went, for the log and the warm-floor benchmark:
 * the whole answer, the servers' part, the daemon's own part, and what came
 * before the answer began (the connection until its line was read, the line
 * until it ran). Requests run side by side count their time once each.
 */
function timings(socket: DaemonSocket, started: number, server: ServerTime): string {
  const now = performance.now();
  const ms = (n: number) => n.toFixed(2);
  const { openedAt, readAt } = socket.data;
  return (
    `${ms(now - started)} ms (server ${ms(server.ms)} ms in ${server.requests}, own ${ms(now - started - server.ms)} ms; ` +
    `connection to line ${ms(readAt - openedAt)} ms, line to run ${ms(started - readAt)} ms)`
  );
}

/** What became of an edit: its outcome, or why it is not known yet (a journal recovery left), or null: never begun. */
function outcomeOf(dir: string, id: string): EditOutcome | null {
  const taken = takeOutcome(dir, id);
  if (taken) return taken;
  const why = unsettled(dir, id);
  return why ? { written: false, summary: '', unsettled: why } : null;
}

export class Questions {
  /** Command lines under way. */
  inFlight = 0;

  constructor(private readonly o: ListenOptions) {}

  /** One line of a batch's input: a request for its queue, or the end. */
  takeInput(input: LineQueue, text: string): void {
    const message = readLine(BatchInputShape, text);
    // A line that is not one is answered as a bad request, in its place.
    if (!message.ok) input.push(text);
    else if ('end' in message.value) input.end();
    else input.push(message.value.input);
  }

  refuse(socket: DaemonSocket, why: string): void {
    this.o.log(`refused a malformed request: ${why}`);
    send(socket, { ok: false, error: { code: 'daemon', message: `the daemon got a malformed request (${why})` } });
  }

  /** The first line of a connection: its envelope checked, then the request answered. */
  async handle(socket: DaemonSocket, text: string): Promise<void> {
    const o = this.o;
    // Parsed once; its head tells which checks the rest gets.
    const parsed = parseLine(text);
    if (!parsed.ok) return this.refuse(socket, parsed.why);
    // zod, not a compiled check: an envelope is small (10-15 us), and compiling one cost a new daemon's first
    // question 85-100 ms.
    const head = checkMessage(EnvelopeHeadShape, parsed.value);
    if (!head.ok) return this.refuse(socket, head.why);
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
    const envelope = checkMessage(EnvelopeShape, parsed.value);
    if (!envelope.ok) return this.refuse(socket, envelope.why);
    const request = envelope.value.request;
    o.onActivity();
    if (request.op === 'status') return send(socket, { ok: true, status: status(o) });
    if (request.op === 'outcome') return send(socket, { ok: true, outcome: outcomeOf(o.journalDir, request.id) });
    if (request.op !== 'run') return this.refuse(socket, `request.op: '${request.op}' is answered above`);
    // Before any await: the lines after the command line are a batch's input, taken as they arrive.
    const streams = isCommand(request.line.command) && COMMANDS[request.line.command].stream === true;
    if (streams) socket.data.input = new LineQueue();
    return this.run(socket, request.line);
  }

  /** A command line on the one path; its output is the reply, kept first with its edit's outcome. */
  private async run(socket: DaemonSocket, line: CommandLine): Promise<void> {
    const o = this.o;
    this.inFlight++;
    const before = o.pool.size;
    const started = performance.now();
    const notes = new Set<string>();
    const serverTime = new ServerTime();
    try {
      // Where the kernel's queue is not read directly, let the events it already holds arrive first.
      if (!o.watchers.immediate) await nextTurn();
      strayRejection();
      const host: Host = {
        answer: <K extends Op>(query: Question<K>) =>
          dispatch<Operations, K>(query, { ...this.engineContext(socket, line, notes), serverTime }, ANSWERERS),
        report: (err: unknown) => {
          if (!(err instanceof LspqError)) o.log(`internal error for ${line.command}: ${stackOf(err)}`);
        },
      };
      const output = await this.output(socket, line, host, notes);
      // Kept with the edit's outcome before it is sent: a daemon killed now still tells the command all of it.
      if (line.editId) recordOutput(o.journalDir, line.editId, output);
      // Cancelled (the command went away, or the daemon stops): no answer made of the cancellation. The
      // command asks the next daemon again, or, for an edit, its journal what happened.
      if (socket.data.abort.signal.aborted) return void socket.end();
      send(socket, { ok: true, output });
      o.log(`${line.command} (exit ${output.exit}) answered in ${timings(socket, started, serverTime)}`);
    } catch (err) {
      // runCommandLine turns every failure into output; this is a failure of the daemon itself.
      o.log(`internal error for ${line.command}: ${stackOf(err)}`);
      if (!socket.data.abort.signal.aborted) send(socket, { ok: false, error: toErrorPayload(err) });
    } finally {
      this.inFlight--;
      o.onActivity();
      if (o.pool.size !== before) o.onServersChanged();
    }
  }

  /** A batch streams its answers as they come; any other command answers once. */
  private async output(
    socket: DaemonSocket,
    line: CommandLine,
    host: Host,
    notes: Set<string>,
  ): Promise<CommandOutput> {
    const input = socket.data.input;
    if (!input) return withNotes(await runCommandLine(line, host), notes, line.json);
    const emit = (answerLine: string) => write(socket, `${JSON.stringify({ answer: answerLine.trimEnd() })}\n`);
    return runStreamLine(line, input, emit, host);
  }

  private engineContext(socket: DaemonSocket, line: CommandLine, notes: Set<string>): EngineContext {
    const o = this.o;
    return {
      warn: (note) => notes.add(note),
      pool: o.pool,
      signal: socket.data.abort.signal,
      log: o.log,
      journalDir: o.journalDir,
      disk: o.watchers,
      beforeRequest: async (session) => {
        const told = await tellChanges(session, o.watchers);
        if (told > 0) o.log(`${session.client.spec.id}: ${told} watched file change(s) under ${session.client.root}`);
      },
      // Progress only for a person at a terminal; a line the socket cannot take now is simply skipped.
      progress: line.progress
        ? (text) => void (socket.data.out ? undefined : write(socket, `${JSON.stringify({ progress: text })}\n`))
        : undefined,
    };
  }
}
