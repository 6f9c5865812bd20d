/** Why a server is dead, in the one line a question that met it fails with. */
import { LspqError } from '../common/errors';

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
