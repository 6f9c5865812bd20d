/**
 * The command's questions to the daemon: a command line, or a batch's
 * stream of request lines, sent through the socket client and answered
 * with the output to print.
 */
import { fromErrorPayload, LspqError, type CommandOutput } from '../errors';
import { ask, envelope, patience, roundTrip, type Stream } from '../protocol/daemon-client';
import type { CommandLine, Reply, Request } from '../protocol/messages';
import { socketPath } from '../protocol/socket';

/**
 * A command line, to the daemon: it parses, answers and renders it, and
 * this process prints what comes back. Progress lines, sent only when
 * stderr is a terminal, are shown as they arrive.
 */
export async function forward(line: CommandLine, onProgress?: (text: string) => void): Promise<CommandOutput> {
  const reply = await ask({ op: 'run', line }, { start: true, onProgress });
  if (reply && 'output' in reply) return reply.output;
  throw new LspqError('daemon', "the daemon answered a command line with something else; run 'lspq daemon restart'");
}

/**
 * A batch: one connection carries its command line, then its request lines
 * as stdin yields them; answer lines are handed to `stream.onAnswer` as they
 * come, in order. A daemon of this build is made sure of first (a status
 * round trip, which replaces one of another build), so no input is read
 * for a daemon that would refuse it.
 */
export async function forwardBatch(
  line: CommandLine,
  stream: Stream,
  onProgress?: (text: string) => void,
): Promise<CommandOutput> {
  await ask({ op: 'status' }, { start: true });
  const request: Request = { op: 'run', line };
  let reply: Reply;
  try {
    reply = await roundTrip(socketPath(process.env), envelope(request), patience(request), onProgress, stream);
  } catch (err) {
    if (err instanceof LspqError) throw err;
    throw new LspqError(
      'daemon',
      `the daemon stopped while answering the batch (${(err as Error).message}); run it again, or see 'lspq daemon logs'`,
    );
  }
  if (!reply.ok)
    throw 'error' in reply
      ? fromErrorPayload(reply.error)
      : new LspqError('daemon', 'the daemon changed build during the batch; run it again');
  if ('output' in reply) return reply.output;
  throw new LspqError('daemon', "the daemon answered a batch with something else; run 'lspq daemon restart'");
}
