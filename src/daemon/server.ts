/**
 * The socket: one JSON line in, one JSON line out per connection (a batch
 * streams its request lines after the first). A connection that closes
 * early (the command was killed) cancels its request.
 */
import { toErrorPayload, stackOf } from '../common/errors';
import { MAX_LINE_BYTES } from '../common/socket-shapes';
import { type Connection, type DaemonSocket, flush, newConnection, send } from './connection';
import { Questions } from './questions';
import type { ListenOptions } from './status';

export interface DaemonServer {
  /** Takes no new connection; the questions under way go on. */
  close(): void;
  /** Cancels every question under way (a daemon stopping that waited long enough). */
  cancelAll(): void;
  readonly inFlight: number;
}

/** Splits what arrived into lines: the first is the request, the next a batch's input. */
function received(socket: DaemonSocket, chunk: Buffer, questions: Questions, log: (line: string) => void): void {
  const d = socket.data;
  if (d.handled && !d.input) return; // one request per connection, unless it is a batch
  d.buffer += d.decoder.decode(chunk, { stream: true });
  for (let end = d.buffer.indexOf('\n'); end >= 0; end = d.buffer.indexOf('\n')) {
    const text = d.buffer.slice(0, end);
    d.buffer = d.buffer.slice(end + 1);
    if (!d.handled) {
      d.handled = true;
      d.readAt = performance.now();
      // Whatever a request does, it fails alone: the daemon and every other question go on.
      questions.handle(socket, text).catch((err: unknown) => {
        log(`internal error: ${stackOf(err)}`);
        if (!socket.data.answered) send(socket, { ok: false, error: toErrorPayload(err) });
      });
    } else if (d.input) questions.takeInput(d.input, text);
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
      questions.refuse(socket, `a line longer than ${MAX_LINE_BYTES / 1_048_576} MB`);
    }
  }
}

export function listen(o: ListenOptions): DaemonServer {
  const questions = new Questions(o);
  const open = new Set<DaemonSocket>();
  const server = Bun.listen<Connection>({
    unix: o.bindAt ?? o.socket,
    socket: {
      open(socket) {
        open.add(socket);
        socket.data = newConnection();
      },
      data: (socket, chunk) => received(socket, chunk, questions, o.log),
      drain: flush,
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
      return questions.inFlight;
    },
  };
}
