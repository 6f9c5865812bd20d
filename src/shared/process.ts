/**
 * Whether a process still runs. A zombie does not: where PID 1 does not reap
 * orphans (containers), a dead daemon or server stays a zombie, and kill(0)
 * alone would call it alive. (node:fs loads only when asked: the command
 * path imports this file.)
 */

export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // no /proc (not Linux): kill(0) is all there is
  }
}
