/**
 * Servers run in their own process groups, so a daemon killed with SIGKILL
 * cannot take them along. Most exit when their stdin closes; for the rest,
 * the daemon records what it runs and the next daemon reaps what is left.
 */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import type { Session } from '../lsp/manager';
import { commandLine } from '../common/process-table';

interface Recorded {
  pid: number;
  cmdline: string;
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
  let records: Recorded[] = [];
  try {
    records = JSON.parse(readFileSync(path, 'utf8')) as Recorded[];
  } catch {
    return;
  }
  for (const r of records) {
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
