/**
 * The command's questions to the daemon: a command line, or a batch's
 * stream of request lines, sent through the socket client and answered
 * with the output to print.
 */
import { fromErrorPayload, LspqError, type CommandOutput, messageOf } from '../common/errors';
import { ask, DaemonLost, envelope, patience, roundTrip, type Stream } from './daemon-client';
import { batchEditId, type CommandLine, type Reply, type Request } from '../common/messages';
import { socketPath } from '../common/socket';

/**
 * A command line, to the daemon: it parses, answers and renders it, and
 * this process prints what comes back. Progress lines, sent only when
 * stderr is a terminal, are shown as they arrive.
 */
export async function forward(line: CommandLine, onProgress?: (text: string) => void): Promise<CommandOutput> {
  let reply: Reply | undefined;
  try {
    reply = await ask({ op: 'run', line }, { start: true, onProgress, once: line.editId !== undefined });
  } catch (err) {
    if (err instanceof DaemonLost && line.editId) return afterLostEdit(line, line.editId, err.message);
    throw err;
  }
  if (reply && 'output' in reply) return reply.output;
  throw new LspqError('daemon', "the daemon answered a command line with something else; run 'lspq daemon restart'");
}

/**
 * A command line to the daemon if one of this build runs; undefined where
 * none does (none is started, and one of another build is left running).
 */
export async function forwardIfRunning(line: CommandLine): Promise<CommandOutput | undefined> {
  const reply = await ask({ op: 'run', line }, { start: false, keepOther: true });
  if (reply === undefined) return undefined;
  if ('output' in reply) return reply.output;
  throw new LspqError('daemon', "the daemon answered a command line with something else; run 'lspq daemon restart'");
}

/**
 * The daemon died under a command that may have written files: it is not
 * sent again. The next daemon finishes or takes back what the journal
 * holds of the edit as it starts, and says which.
 */
async function afterLostEdit(line: CommandLine, id: string, why: string): Promise<CommandOutput> {
  const reply = await ask({ op: 'outcome', id }, { start: true });
  const outcome = reply && 'outcome' in reply ? reply.outcome : null;
  const left = outcome?.left?.length ? `; left as another program wrote them: ${outcome.left.join(', ')}` : '';
  if (outcome?.unsettled)
    throw new LspqError(
      'daemon',
      `the daemon stopped during the edit (${why}), and whether it wrote is not known: ${outcome.unsettled}; look at the files and 'lspq daemon logs' before running it again`,
    );
  if (!outcome)
    throw new LspqError(
      'daemon',
      `the daemon stopped before it wrote anything (${why}); no file changed; run the command again`,
    );
  if (!outcome.written)
    throw new LspqError(
      'taken_back',
      `the daemon stopped while it wrote the edit (${outcome.summary}); it was taken back, every file as it was${left}; run the command again`,
    );
  if (outcome.output) return outcome.output;
  const said = `${outcome.summary} (the daemon stopped before it answered; the edit was written)${left}`;
  return line.json
    ? { stdout: `${JSON.stringify({ recovered: { written: true, summary: outcome.summary } })}\n`, exit: 0 }
    : { stdout: '', stderr: said, exit: 0 };
}

/** What became of each edit a batch had begun (its requests ID-0 to ID-N), as the next daemon says. */
async function batchOutcomes(batchId: string, sent: number): Promise<string[]> {
  const said: string[] = [];
  for (let i = 0; i < sent; i++) {
    const reply = await ask({ op: 'outcome', id: batchEditId(batchId, i) }, { start: true });
    const outcome = reply && 'outcome' in reply ? reply.outcome : null;
    if (!outcome) continue;
    if (outcome.unsettled) said.push(`request ${i + 1}: not known (${outcome.unsettled})`);
    else said.push(`request ${i + 1}: ${outcome.written ? 'written' : 'taken back'} (${outcome.summary})`);
  }
  return said;
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
  let sent = 0;
  const counted: Stream = {
    ...stream,
    input: (async function* () {
      for await (const text of stream.input) {
        sent++;
        yield text;
      }
    })(),
  };
  try {
    reply = await roundTrip(socketPath(process.env), envelope(request), patience(request), onProgress, counted);
  } catch (err) {
    if (err instanceof LspqError) throw err;
    const why = messageOf(err);
    const edits = line.editId ? await batchOutcomes(line.editId, sent) : [];
    if (edits.length > 0)
      throw new LspqError(
        'daemon',
        `the daemon stopped while answering the batch (${why}); of its edits: ${edits.join('; ')}; do not run the whole batch again, only what was not done`,
      );
    throw new LspqError(
      'daemon',
      `the daemon stopped while answering the batch (${why}); it wrote nothing, so run it again, or see 'lspq daemon logs'`,
    );
  }
  if (!reply.ok)
    throw 'error' in reply
      ? fromErrorPayload(reply.error)
      : new LspqError('daemon', 'the daemon changed build during the batch; run it again');
  if ('output' in reply) return reply.output;
  throw new LspqError('daemon', "the daemon answered a batch with something else; run 'lspq daemon restart'");
}
