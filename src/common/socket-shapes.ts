/**
 * What crosses the daemon's socket, each shape written once: its zod schema
 * is both the runtime check the daemon applies to every line it reads (a
 * malformed line is an error reply, never a crash) and, through z.infer,
 * the TypeScript type both processes write against.
 *
 * Only the daemon loads this at run time: zod cost a warm question's
 * command about 1.5 ms to load (side by side against a bare process), so
 * the command's side imports these types only, and checks the daemon's
 * reply with the small guard in cli/daemon-client.ts.
 */
import { firstIssue } from './zod-issues';
import * as z from 'zod/mini';

/** Longest line the daemon reads: a command line with its whole environment fits many times over. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * A whole command line, and what the engine needs to know of the process
 * that typed it: every command travels to the engine as one of these, and
 * the engine parses it, answers, renders and picks the exit code.
 */
export const CommandLineShape = z.object({
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string().check(z.minLength(1)),
  env: z.record(z.string(), z.string()),
  /** Colour the output (stdout is a terminal and NO_COLOR is unset). */
  color: z.boolean(),
  /** stderr is a terminal: progress is worth sending. */
  progress: z.boolean(),
  /** What the words say, read once where they were typed (common/words.ts). */
  json: z.boolean(),
  help: z.boolean(),
  /** With json: the lines for a person too, in the output's `text`, from the same one run (an MCP tool's answer). */
  alsoText: z.optional(z.boolean()),
  timeoutMs: z.optional(z.number()),
  /** A command that may write names its edit, to ask after it if the daemon dies under it (never to send it twice). */
  editId: z.optional(z.string().check(z.regex(/^[\w-]{1,64}$/))),
  /** The folder every path of the line must stay in (an MCP server's pinned workspace): read or written. */
  confine: z.optional(z.string().check(z.minLength(1))),
  /** What the command's process read on its stdin, where the words asked for it (`diag --patch -`, `hook run`). */
  stdin: z.optional(z.string()),
});
export type CommandLine = z.infer<typeof CommandLineShape>;

/**
 * A command line to run, or one of the daemon's control requests. A
 * batch's command line is followed, on the same connection, by its input
 * lines (BatchInput) until `end`.
 */
export const RequestShape = z.discriminatedUnion('op', [
  z.object({ op: z.literal('run'), line: CommandLineShape }),
  z.object({ op: z.literal('status') }),
  z.object({ op: z.literal('stop') }),
  z.object({ op: z.literal('ping') }),
  z.object({ op: z.literal('outcome'), id: z.string() }),
]);
export type Request = z.infer<typeof RequestShape>;

/**
 * What every build's envelope has: enough to answer ping and stop across
 * builds, and to tell a command of another build to replace the daemon
 * rather than call its request malformed.
 */
export const EnvelopeHeadShape = z.object({
  protocol: z.number(),
  build: z.string(),
  request: z.object({ op: z.string() }),
});

/** One line of JSON from the command to the daemon. */
export const EnvelopeShape = z.object({
  protocol: z.number(),
  build: z.string(),
  request: RequestShape,
});
export type Envelope = z.infer<typeof EnvelopeShape>;

/** After a batch's command line: one request line of its stdin, or the end of it. */
export const BatchInputShape = z.union([z.object({ input: z.string() }), z.object({ end: z.literal(true) })]);
export type BatchInput = z.infer<typeof BatchInputShape>;

/** A line of text as a checked message, or the reason it is not one. */
export function readLine<T>(
  shape: z.ZodMiniType<T>,
  text: string,
): { ok: true; value: T } | { ok: false; why: string } {
  const parsed = parseLine(text);
  return parsed.ok ? checkMessage(shape, parsed.value) : parsed;
}

/** A line of text parsed as JSON, not yet checked. */
export function parseLine(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, why: 'not JSON' };
  }
}

/** A message already parsed from its line, checked (the envelope's head, then the whole of it). */
export function checkMessage<T>(
  shape: z.ZodMiniType<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; why: string } {
  const checked = z.safeParse(shape, value);
  return checked.success
    ? { ok: true, value: checked.data }
    : { ok: false, why: firstIssue(checked.error, 'the message') };
}
