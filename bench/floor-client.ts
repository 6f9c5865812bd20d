/**
 * The floor of a warm question on this machine: the smallest compiled Bun
 * client that has lspq's daemon run a command line, one JSON line each way
 * over a fresh connection, then prints the answer and exits. It skips what
 * lspq does besides (the socket folder check, the wait limits, errors,
 * --no-daemon), so "lspq over the floor" is the cost of lspq's own command
 * process, and the floor over the server is Bun's start plus the daemon.
 *
 * Usage: floor-client BUILD_ID COMMAND [ARGS...], with LSPQ_SOCKET set.
 */
import { PROTOCOL_VERSION } from '../src/common/messages';

const [build, command, ...args] = process.argv.slice(2);
const request = {
  op: 'run',
  line: {
    command,
    args,
    cwd: process.cwd(),
    env: process.env,
    color: false,
    progress: false,
    json: args.includes('--json'),
    help: false,
  },
};
const payload = new TextEncoder().encode(`${JSON.stringify({ protocol: PROTOCOL_VERSION, build, request })}\n`);
const decoder = new TextDecoder();
let reply = '';

void Bun.connect({
  unix: process.env.LSPQ_SOCKET!,
  socket: {
    binaryType: 'uint8array',
    open: (socket) => void socket.write(payload),
    data: (socket, chunk) => {
      reply += decoder.decode(chunk, { stream: true });
      if (!reply.includes('\n')) return;
      socket.end();
      const answer = JSON.parse(reply) as { ok: boolean; output?: { stdout: string; exit: number } };
      const out = answer.ok && answer.output ? answer.output : { stdout: reply, exit: 3 };
      void Bun.write(Bun.stdout, out.stdout).then(() => process.exit(out.exit));
    },
  },
});
