/**
 * How lspq talks to a person at a terminal, besides its one-line errors:
 * warnings (an answer cut at --limit, git's own warnings) and progress
 * while a server loads a project or diag works through many files. Through
 * consola, loaded at the first message: loading it costs about 14 ms, which
 * a warm question with nothing to say must not pay, and which a script
 * reading a pipe does not pay either (main.ts writes its warnings plainly).
 * A bundle of its own (src/bundles.ts), so the command's bundle does not
 * carry consola.
 */
import type { ConsolaInstance } from 'consola';
import { isTerminal } from './terminal';

/** Progress is shown at most this often: a message a second is news, ten are noise. */
const PROGRESS_EVERY_MS = 1_000;

let instance: ConsolaInstance | undefined;
let lastProgress = 0;

/**
 * consola writes to a stream; lspq exits the moment its output is written
 * (main.ts), before a stream's write could finish. So consola writes here,
 * and what it wrote goes to stderr with an awaited write.
 */
let pending = '';
const collector = {
  write: (text: string) => {
    pending += text;
    return true;
  },
  isTTY: isTerminal(2),
  columns: 0,
};
/** Terminal rows the progress lines took, so they can be erased when the answer comes. */
let progressRows = 0;

function rowsOf(text: string): number {
  const columns = process.stderr.columns || 80;
  const plain = text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  return plain
    .split('\n')
    .slice(0, -1)
    .reduce((n, line) => n + Math.max(1, Math.ceil(Array.from(line).length / columns)), 0);
}

function flush(): Promise<void> {
  const text = pending;
  pending = '';
  return text ? Bun.write(Bun.stderr, text).then(() => undefined) : Promise.resolve();
}

function consola(): ConsolaInstance {
  if (!instance) {
    const { createConsola } = require('consola') as typeof import('consola');
    // Everything to stderr: stdout carries the answer alone. Fancy on a terminal; plain `[warn] ...` lines if stderr is not one (--no-daemon's debug lines).
    // `fancy` is read by consola's node build, though its option type leaves it out.
    const options = {
      // consola calls write() and reads isTTY and columns: the collector is all of a stream it uses.
      stdout: collector as unknown as NodeJS.WriteStream,
      stderr: collector as unknown as NodeJS.WriteStream,
      fancy: isTerminal(2),
      level: process.env.LSPQ_DEBUG ? 4 : 3,
      formatOptions: { date: false },
    };
    instance = createConsola(options);
  }
  return instance;
}

export function warn(messages: readonly string[]): Promise<void> {
  for (const message of messages) consola().warn(message);
  return flush();
}

export function progress(text: string): void {
  const now = Date.now();
  if (now - lastProgress < PROGRESS_EVERY_MS) return;
  lastProgress = now;
  consola().start(text);
  progressRows += rowsOf(pending);
  void flush();
}

/** Erases the progress lines shown (cursor up over them, clear to the end): the answer takes their place. */
export function clearProgress(): Promise<void> {
  if (progressRows === 0) return Promise.resolve();
  const rows = progressRows;
  progressRows = 0;
  return Bun.write(Bun.stderr, `\u001b[${rows}F\u001b[0J`).then(() => undefined);
}

/** The daemon's log lines, when the engine runs in this process (--no-daemon with LSPQ_DEBUG=1). */
export function debug(line: string): void {
  consola().debug(line);
  void flush();
}
export type PersonBundle = typeof import('./person');
