/**
 * What a person at a terminal reads besides the answer and its one-line
 * errors: warnings (an answer cut at --limit, git's own warnings) and
 * progress while a server loads a project, through consola on stderr.
 * A bundle of its own (src/bundles.ts), loaded at the first message:
 * consola costs about 14 ms to load, which a warm question with nothing to
 * say, or a script reading a pipe (main.ts writes its warnings plainly),
 * does not pay.
 */
import type { ConsolaInstance } from 'consola';
import { isTerminal } from './terminal';

/** Progress is shown at most this often: a message a second is news, ten are noise. */
const PROGRESS_EVERY_MS = 1_000;

let instance: ConsolaInstance | undefined;
let lastProgress = 0;
/** Terminal rows the progress lines took, erased when the answer comes. */
let progressRows = 0;

function consola(): ConsolaInstance {
  // Everything to stderr: stdout carries the answer alone. `fancy` is read by consola's node build, though its option type leaves it out.
  instance ??= (require('consola') as typeof import('consola')).createConsola({
    stdout: process.stderr,
    stderr: process.stderr,
    fancy: isTerminal(2),
    level: process.env.LSPQ_DEBUG ? 4 : 3,
    formatOptions: { date: false },
  } as Parameters<typeof import('consola').createConsola>[0]);
  return instance;
}

/** Once what consola wrote has reached stderr: the command exits the moment its answer is written. */
const written = () => new Promise<void>((resolve) => process.stderr.write('', () => resolve()));

export function warn(messages: readonly string[]): Promise<void> {
  for (const message of messages) consola().warn(message);
  return written();
}

export function progress(text: string): void {
  const now = Date.now();
  if (now - lastProgress < PROGRESS_EVERY_MS) return;
  lastProgress = now;
  consola().start(text);
  // consola's line is its symbol, a space and the text.
  const columns = process.stderr.columns || 80;
  progressRows += Math.max(1, Math.ceil((Array.from(text).length + 2) / columns));
}

/** Erases the progress lines shown (cursor up over them, clear to the end): the answer takes their place. */
export async function clearProgress(): Promise<void> {
  if (progressRows === 0) return;
  const rows = progressRows;
  progressRows = 0;
  await written();
  await Bun.write(Bun.stderr, `\u001b[${rows}F\u001b[0J`);
}

/** The daemon's log lines, when the engine runs in this process (--no-daemon with LSPQ_DEBUG=1). */
export function debug(line: string): void {
  consola().debug(line);
}

export type TerminalBundle = typeof import('./terminal-messages');
