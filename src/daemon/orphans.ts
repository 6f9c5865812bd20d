/**
 * Servers run in their own process groups, so a daemon killed with SIGKILL
 * cannot take them along. Most exit when their stdin closes; for the rest,
 * the daemon records what it runs and the next daemon reaps what is left.
 */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Session } from '../lsp/manager';
import { commandLine } from '../common/process-table';

/** A server the daemon ran: its pid (a group leader's, killed as a group) and its command line. */
const Recorded = z.object({ pid: z.int().check(z.positive()), cmdline: z.string().check(z.minLength(1)) });
type Recorded = z.infer<typeof Recorded>;

/**
 * The records of a file whose every record is checked: anything else in it
 * is dropped, as a pid of 0 or -1 would signal every process of the group or user.
 */
export function readRecords(text: string): Recorded[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((r) => {
    const checked = Recorded.safeParse(r);
    return checked.success ? [checked.data] : [];
  });
}

/** A process's command line as one string (its words joined by NULs), to tell a reused pid from the server. */
function cmdline(pid: number): string | undefined {
  return commandLine(pid)?.join('\0');
}

/** Written whole or not at all: a temp file renamed into place. */
export function recordServers(path: string, sessions: Session[]): void {
  const records: Recorded[] = [];
  for (const s of sessions) {
    const pid = s.client.pid;
    const line = pid === undefined ? undefined : cmdline(pid);
    if (pid !== undefined && line) records.push({ pid, cmdline: line });
  }
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(records), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  } catch {}
}

export function reapOrphans(path: string, log: (line: string) => void): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  for (const r of readRecords(text)) {
    // Only the very process recorded: a reused pid runs another command line.
    if (cmdline(r.pid) !== r.cmdline) continue;
    log(`reaping server left by a dead daemon: pid ${r.pid}`);
    try {
      process.kill(-r.pid, 'SIGKILL');
    } catch {
      try {
        process.kill(r.pid, 'SIGKILL');
      } catch {}
    }
  }
}
