/**
 * What the operating system says of processes: each one's parent, resident
 * memory and state, and a process's command line. Linux has /proc; macOS
 * (and any system without it) has ps, run once for a whole table. Every
 * function takes the platform and the ps runner, so both paths are tested
 * on either system.
 */

export interface ProcessInfo {
  ppid: number;
  /** Resident memory, bytes. */
  rss: number;
  /** ps's state letters (Linux's one letter): Z is a zombie. */
  state: string;
}

export type PsRunner = (args: string[]) => string | undefined;

/** ps, run and read whole; undefined where it cannot run. */
export const runPs: PsRunner = (args) => {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const r = spawnSync('ps', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? r.stdout : undefined;
};

const PS_TABLE = ['-axo', 'pid=,ppid=,rss=,stat='];

/** `ps -axo pid=,ppid=,rss=,stat=` as a table (rss in KB, as both BSD and procps ps print it). Pure. */
export function parsePs(text: string): Map<number, ProcessInfo> {
  const table = new Map<number, ProcessInfo>();
  for (const line of text.split('\n')) {
    const [pid, ppid, rss, state] = line.trim().split(/\s+/);
    const n = Number(pid);
    if (!Number.isSafeInteger(n) || state === undefined) continue;
    table.set(n, { ppid: Number(ppid), rss: Number(rss) * 1024, state });
  }
  return table;
}

/** One /proc/PID/stat line's parent, state and start time (the command name may hold spaces and parentheses). Pure. */
export function parseStat(stat: string): { ppid: number; state: string; started: string } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Field 22, the clock ticks from boot to the process's start: fields here start at field 3.
  return { ppid: Number(fields[1]), state: fields[0] ?? '', started: fields[19] ?? '' };
}

function fromProc(): Map<number, ProcessInfo> | undefined {
  const { readdirSync, readFileSync } = require('node:fs') as typeof import('node:fs');
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const table = new Map<number, ProcessInfo>();
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid)) continue;
    try {
      const { ppid, state } = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      table.set(pid, { ppid, state, rss: kb ? Number(kb) * 1024 : 0 });
    } catch {}
  }
  return table;
}

/** Every process's parent, memory and state; undefined where neither /proc nor ps answers. */
export function processTable(
  platform: NodeJS.Platform = process.platform,
  ps: PsRunner = runPs,
): Map<number, ProcessInfo> | undefined {
  if (platform === 'linux') return fromProc();
  const text = ps(PS_TABLE);
  return text === undefined ? undefined : parsePs(text);
}

/**
 * Whether one process (a server) still runs, asked before each question:
 * on Linux its /proc stat file is held open and read again, one system
 * call where opening, reading and closing it took five (0.08 ms of every
 * warm question). The open file stays that process's: once it is reaped
 * the read fails, whatever process takes its PID next. Closed with close().
 */
export class ProcessProbe {
  private fd: number | undefined;
  private readonly buffer = Buffer.alloc(1024);

  constructor(
    private readonly pid: number,
    private readonly fallback: (pid: number) => boolean,
  ) {
    if (process.platform !== 'linux') return;
    const { openSync } = require('node:fs') as typeof import('node:fs');
    try {
      this.fd = openSync(`/proc/${pid}/stat`, 'r');
    } catch {}
  }

  runs(): boolean {
    if (this.fd === undefined) return this.fallback(this.pid);
    const { readSync } = require('node:fs') as typeof import('node:fs');
    try {
      const n = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
      return !parseStat(this.buffer.toString('latin1', 0, n)).state.startsWith('Z');
    } catch {
      return false; // gone (ESRCH)
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    const { closeSync } = require('node:fs') as typeof import('node:fs');
    try {
      closeSync(this.fd);
    } catch {}
    this.fd = undefined;
  }
}

/** Whether `pid` is a zombie (exited, not yet reaped); false where that cannot be told. */
export function isZombie(pid: number, platform: NodeJS.Platform = process.platform, ps: PsRunner = runPs): boolean {
  if (platform === 'linux') {
    try {
      const { readFileSync } = require('node:fs') as typeof import('node:fs');
      return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).state.startsWith('Z');
    } catch {
      return false;
    }
  }
  return (ps(['-o', 'stat=', '-p', String(pid)]) ?? '').trim().startsWith('Z');
}

/**
 * A process's command line: its words on Linux; on macOS ps's one line
 * split at spaces (good enough to find a word such as __daemon in it).
 */
export function commandLine(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  ps: PsRunner = runPs,
): string[] | undefined {
  if (platform === 'linux') {
    try {
      const { readFileSync } = require('node:fs') as typeof import('node:fs');
      const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return words.at(-1) === '' ? words.slice(0, -1) : words;
    } catch {
      return undefined;
    }
  }
  const line = ps(['-o', 'command=', '-p', String(pid)])?.trim();
  return line ? line.split(/\s+/) : undefined;
}

/**
 * When a process started, as the system says it (Linux: clock ticks since
 * boot; elsewhere ps's lstart): with its pid, it names one process, where
 * a pid alone may be reused by another once the first is gone. Undefined
 * where it cannot be told (no such process).
 */
export function startedAt(
  pid: number,
  platform: NodeJS.Platform = process.platform,
  ps: PsRunner = runPs,
): string | undefined {
  if (platform === 'linux') {
    try {
      const { readFileSync } = require('node:fs') as typeof import('node:fs');
      return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).started || undefined;
    } catch {
      return undefined;
    }
  }
  return ps(['-o', 'lstart=', '-p', String(pid)])?.trim() || undefined;
}
