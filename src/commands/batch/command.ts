/**
 * batch: many questions, one process, one connection. Each input line is a
 * request (a JSON array of a command's words, or {"id", "args"}); each is
 * run as that command with --json on the one path, up to `jobs` at once,
 * and answered as one JSON line in input order, as soon as it and those
 * before it are done. A bad line is answered with an error and the batch
 * goes on. The exit code is the worst of the answers'.
 */
import { batchEditId } from '../../common/messages';
import * as z from 'zod/mini';
import { type CommandOutput, errorOutput, type ExitCode, usage } from '../../common/errors';
import type { CommandLine } from '../../common/messages';
import { scanWords } from '../../common/words';
import { defineCommand, type Invocation } from '../define';
import { serverArgs } from '../common-args';
import { positiveInt } from '../options';
import { BatchLineShape } from './shape';

export const DEFAULT_JOBS = 4;

interface Parsed {
  id?: unknown;
  words: string[];
}

/** A request line: a command and its words, or the same with an id to match the answer by. */
const Words = z.array(z.string()).check(z.minLength(1));
const RequestLine = z.union([Words, z.looseObject({ id: z.optional(z.unknown()), args: Words })]);

/** One input line as a request; throws a usage error that becomes the line's answer. */
export function parseRequest(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw usage(`not JSON: write a request as ["hover", "FILE:LINE:COL"] or {"id": 1, "args": [...]}`);
  }
  const checked = z.safeParse(RequestLine, value);
  if (!checked.success) {
    throw usage('a request is a JSON array of a command and its words, or {"id": ..., "args": [...]}');
  }
  const request = checked.data;
  return Array.isArray(request) ? { words: request } : { id: request.id, words: request.args };
}

/** The commands a batch runs: those that ask a language server (their declarations run them in the daemon). */
function checkCommand(name: string | undefined, commands: Invocation['commands']): string {
  if (name === undefined) throw usage('a request names its command first: ["hover", "FILE:LINE:COL"]');
  const command = commands[name];
  if (!command) throw usage(`unknown command '${name}'; run 'lspq --help' for the list`);
  if (command.process === 'here' || command.stream) throw usage(`'${name}' does not run in a batch; run it on its own`);
  return name;
}

/** The answer line for one request: `{"id"?, "exit", "answer"}` or `{"id"?, "exit", "error"}`. */
async function answerOne(
  text: string,
  index: number,
  base: CommandLine,
  ctx: Invocation,
): Promise<{ line: string; exit: ExitCode }> {
  let id: unknown;
  let output: CommandOutput;
  try {
    const request = parseRequest(text);
    id = request.id;
    const words = scanWords([...request.words, '--json'], base.env);
    const command = checkCommand(words.command, ctx.commands);
    // A request that may write names its edit after the batch's (ID-N), so a command that lost its daemon asks after it.
    const { editId: batchId, ...rest } = base;
    const editId = batchId && ctx.commands[command]?.writes ? { editId: batchEditId(batchId, index) } : {};
    const line = {
      ...rest,
      ...editId,
      command,
      args: words.args,
      color: false,
      progress: false,
      json: true,
    };
    output = await ctx.runLine({ ...line, help: words.help, timeoutMs: words.timeoutMs });
  } catch (err) {
    output = errorOutput(err, true);
  }
  const head = `{${id !== undefined ? `"id":${JSON.stringify(id)},` : ''}"exit":${output.exit}`;
  // The command's own JSON document goes in as it is: written by lspq, it need not be parsed and written again.
  const tail = output.error ? `"error":${JSON.stringify(output.error)}` : `"answer":${output.stdout.trim() || '{}'}`;
  return { line: `${head},${tail}}\n`, exit: output.exit };
}

/**
 * Runs every request `lines` yields, `jobs` at a time, and hands `emit`
 * each answer line in input order. Returns the worst exit code.
 */
export async function runBatch(
  base: CommandLine,
  lines: AsyncIterable<string>,
  emit: (line: string) => void,
  ctx: Invocation,
  jobs: number,
): Promise<ExitCode> {
  let worst: ExitCode = 0;
  const pending: Promise<{ line: string; exit: ExitCode }>[] = [];
  const flushHead = async () => {
    const done = await pending.shift();
    if (!done) return;
    if (done.exit > worst) worst = done.exit;
    emit(done.line);
  };
  let index = 0;
  for await (const text of lines) {
    const at = index++;
    if (text.trim() === '') continue;
    pending.push(answerOne(text, at, base, ctx));
    // Answers leave in order: with `jobs` in flight, wait for the oldest.
    while (pending.length >= jobs) await flushHead();
  }
  while (pending.length > 0) await flushHead();
  return worst;
}

export const batch = defineCommand({
  summary: 'many questions, one per stdin line, answered as JSON lines in order',
  args: {
    ...serverArgs,
    jobs: {
      type: 'string',
      description: 'Questions answered at once (default 4); answers still leave in input order',
      valueHint: 'N',
    },
  },
  examples: [
    `printf '["hover", "geometry.go:9:sumAreas"]\\n["def", "main.go:7:TotalArea"]\\n' | lspq batch`,
    `echo '{"id": 1, "args": ["refs", "shape.go:4:Shape"]}' | lspq batch --jobs 8`,
  ],
  process: 'daemon',
  stream: true,
  // It reads its requests as a stream: it reaches a plain run only where no stream is (inside a batch).
  run: async () => {
    throw usage("'batch' does not run in a batch; run it on its own");
  },
  streams: async (args, invocation, input, emit) => {
    const jobs = positiveInt(args.jobs, '--jobs') ?? DEFAULT_JOBS;
    return { stdout: '', exit: await runBatch(invocation.line, input, emit, invocation, jobs) } satisfies CommandOutput;
  },
  shape: BatchLineShape,
});
