/**
 * One request to the daemon on a fresh connection: its line out, and the
 * lines back (progress first, a batch's answers, then the reply). The
 * socket folder is opened and checked before the connection, which goes
 * through that open folder (openSocketDir): the request carries the
 * caller's environment, and no folder swapped in after the check receives
 * it. A daemon that takes the connection but never answers does not hang
 * the command.
 */
import type { Socket } from 'bun';
import type { Envelope, Reply } from '../common/messages';
import { openSocketDir, type SocketDir } from '../common/socket';
import { daemonLine } from './daemon-lines';

export class ConnectFailed extends Error {}
export class ConnectionLost extends Error {}
export class NoAnswer extends Error {}

/** A batch's side of a connection: its request lines, and where its answer lines go. */
export interface Stream {
  input: AsyncIterable<string>;
  onAnswer: (line: string) => void;
}

class Trip {
  // TextEncoder/TextDecoder, not Buffer: the first use of Buffer cost 0.2 ms.
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private readonly queue: Uint8Array[];
  private buffer = '';
  private settled = false;
  private socket: Socket | undefined;
  private writer: { write(data: Uint8Array): number } | undefined;
  /** A batch waits for its input as long as it takes; only a question sent and not answered is timed. */
  private outstanding = 0;
  private inputDone: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    envelope: Envelope,
    private readonly waitMs: number,
    private readonly resolve: (reply: Reply) => void,
    private readonly reject: (err: unknown) => void,
    private readonly onProgress?: (text: string) => void,
    private readonly stream?: Stream,
  ) {
    this.queue = [this.encoder.encode(`${JSON.stringify(envelope)}\n`)];
    this.inputDone = !stream;
    this.wait();
  }

  /** (Re)arms the timer while something is awaited. */
  private wait(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.outstanding === 0 && !this.inputDone) return;
    this.timer = setTimeout(() => {
      this.fail(new NoAnswer(`no answer within ${Math.round(this.waitMs / 1000)}s`));
      this.socket?.end();
    }, this.waitMs);
  }

  private settle(fn: () => void): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    fn();
  }

  fail(err: unknown): void {
    this.settle(() => this.reject(err));
  }

  /** Bun may take only part of a large write; the rest goes on 'drain'. */
  flush(): void {
    for (let next = this.queue[0]; this.writer && next; next = this.queue[0]) {
      const n = this.writer.write(next);
      if (n <= 0) return;
      if (n < next.length) {
        this.queue[0] = next.subarray(n);
        return;
      }
      this.queue.shift();
    }
  }

  private send(line: string): void {
    this.queue.push(this.encoder.encode(line));
    this.flush();
  }

  private async pump(s: Stream): Promise<void> {
    for await (const line of s.input) {
      if (this.settled) return;
      if (line.trim() === '') continue;
      this.outstanding++;
      this.send(`${JSON.stringify({ input: line })}\n`);
      this.wait();
    }
    this.inputDone = true;
    this.send('{"end":true}\n');
    this.wait();
  }

  /** Connected (through the folder checked before): the request goes, and a batch's lines after it. */
  opened(socket: Socket): void {
    this.socket = socket;
    this.writer = socket;
    this.flush();
    if (this.stream) this.pump(this.stream).catch((err: unknown) => this.fail(err));
  }

  received(socket: Socket, chunk: Uint8Array): void {
    this.buffer += this.decoder.decode(chunk, { stream: true }); // a character may span two chunks
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      const message = daemonLine(line);
      if (!message) {
        this.fail(new ConnectionLost('unreadable reply'));
        socket.end();
        return;
      }
      if ('progress' in message) {
        this.wait(); // a long answer that reports progress is alive
        this.onProgress?.(message.progress);
      } else if ('answer' in message) {
        this.outstanding--;
        this.wait();
        this.stream?.onAnswer(message.answer);
      } else {
        this.settle(() => this.resolve(message));
        socket.end();
        return;
      }
    }
  }
}

/**
 * One request on a fresh connection; rejects with ConnectFailed when nobody
 * listens. With a stream (batch), its lines follow the request, and answer
 * lines come back before the reply.
 */
export function roundTrip(
  path: string,
  envelope: Envelope,
  waitMs: number,
  onProgress?: (text: string) => void,
  stream?: Stream,
): Promise<Reply> {
  let dir: SocketDir | undefined;
  try {
    dir = openSocketDir(path);
  } catch (err) {
    return Promise.reject(err); // a link or an unsafe folder: refused, nothing sent
  }
  if (!dir) return Promise.reject(new ConnectFailed('no socket folder'));
  const folder = dir;
  let closed = false;
  // Once connected (or not), the folder's descriptor has done its work.
  const done = () => {
    if (!closed) folder.close();
    closed = true;
  };
  return new Promise<Reply>((resolve, reject) => {
    const trip = new Trip(envelope, waitMs, resolve, reject, onProgress, stream);
    Bun.connect({
      unix: folder.via,
      socket: {
        binaryType: 'uint8array',
        open: (socket) => {
          done();
          trip.opened(socket);
        },
        drain: () => trip.flush(),
        data: (socket, chunk) => trip.received(socket, chunk),
        close: () => trip.fail(new ConnectionLost('closed')),
        error: (_socket, err) => trip.fail(new ConnectionLost(err.message)),
        connectError: (_socket, err) => {
          done();
          trip.fail(new ConnectFailed(err.message));
        },
      },
    }).catch((err: Error) => {
      done();
      trip.fail(new ConnectFailed(err.message));
    });
  });
}
