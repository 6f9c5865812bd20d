/**
 * One connection to the daemon: what it has read so far, what is still to
 * write, and whether its reply went out. Bun may take only part of a large
 * write; the rest goes when the socket drains.
 */
import type { Socket } from 'bun';
import type { Reply } from '../common/messages';
import type { LineQueue } from '../common/line-queue';

export interface Connection {
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
  /** When the command connected, and when its request line was whole (performance.now()): the log's timings. */
  openedAt: number;
  readAt: number;
}

export type DaemonSocket = Socket<Connection>;

export function newConnection(): Connection {
  return {
    buffer: '',
    decoder: new TextDecoder(),
    abort: new AbortController(),
    out: undefined,
    ending: false,
    handled: false,
    answered: false,
    input: undefined,
    openedAt: performance.now(),
    readAt: 0,
  };
}

/** Writes what the socket takes now; the rest stays for the next drain. */
export function flush(socket: DaemonSocket): void {
  const out = socket.data.out;
  if (!out) return;
  const n = socket.write(out);
  if (n >= out.length) {
    socket.data.out = undefined;
    if (socket.data.ending) socket.end();
  } else if (n > 0) socket.data.out = out.subarray(n);
}

/** Queues text for the socket. */
export function write(socket: DaemonSocket, text: string): void {
  const bytes = Buffer.from(text);
  socket.data.out = socket.data.out ? Buffer.concat([socket.data.out, bytes]) : bytes;
  flush(socket);
}

/** The reply: the connection's last line. */
export function send(socket: DaemonSocket, reply: Reply): void {
  socket.data.answered = true;
  socket.data.ending = true;
  write(socket, `${JSON.stringify(reply)}\n`);
}
