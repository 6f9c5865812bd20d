/** What a server did wrong, in the one line a question that met it fails with: it died, or it answered out of shape. */
import { fits } from '../common/compiled-check';
import type * as z from 'zod/mini';
import { LspqError } from '../common/errors';
import { misfit } from './message-shapes';

/** How much of a malformed answer the log keeps. */
const LOGGED_CHARS = 300;

/** A malformed answer is the question's failure, in one line; the log keeps what the server sent. */
export function checkAnswer(
  id: string,
  method: string,
  shape: z.ZodMiniType,
  result: unknown,
  log: (line: string) => void,
): void {
  if (fits(shape, result)) return;
  const wrong = misfit(shape, result);
  if (!wrong) return;
  const sent = JSON.stringify(result) ?? String(result);
  log(`${id} sent a malformed ${method} answer (${wrong}): ${sent.slice(0, LOGGED_CHARS)}`);
  throw new LspqError('server_failed', `${id} sent a malformed answer to ${method} (${wrong}); see 'lspq daemon logs'`);
}

export interface CrashFacts {
  id: string;
  root: string;
  exit: { code: number | null; signal: string | null } | undefined;
  /** The last of what it wrote to stderr. */
  stderrTail: string;
  /** It sent a frame lspq cannot read, and was stopped for it. */
  brokenFrame: string | undefined;
  /** A process it answers through died (tsserver), and it was stopped for it. */
  deadWorker: string | undefined;
  /** It said it could not load the project, and was stopped for it: why. */
  failedProject?: string;
  /** It grew past the daemon's memory limit on its own, and was stopped for it: how big, against what. */
  overMemory: string | undefined;
}

export function crashError(c: CrashFacts): LspqError {
  const again = 'the next command starts it again';
  if (c.overMemory)
    return new LspqError(
      'server_crashed',
      `${c.id} grew to ${c.overMemory} (LSPQ_MEMORY_LIMIT_MB), so it was stopped (root ${c.root}); ${again} (raise the limit if the project needs more)`,
    );
  if (c.deadWorker)
    return new LspqError(
      'server_crashed',
      `${c.id} lost a process it answers through (${c.deadWorker}), so it was stopped (root ${c.root}); ${again}`,
    );
  if (c.failedProject)
    return new LspqError(
      'server_failed',
      `${c.id} could not load the project at ${c.root}: ${c.failedProject}; its answers would be empty, so it was stopped (fix the project; the next command starts it again)`,
    );
  if (c.brokenFrame)
    return new LspqError(
      'server_crashed',
      `${c.id} sent a frame lspq cannot read (${c.brokenFrame}), so it was stopped (root ${c.root}); ${again}`,
    );
  const how = c.exit
    ? c.exit.signal
      ? `was killed by ${c.exit.signal}`
      : `exited with code ${c.exit.code}`
    : 'stopped';
  const tail = c.stderrTail.trim().split('\n').slice(-3).join(' | ');
  return new LspqError(
    'server_crashed',
    `${c.id} ${how} (root ${c.root})${tail ? `; its stderr ended with: ${tail}` : ''}; ${again}`,
  );
}
