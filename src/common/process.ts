/**
 * Whether a process still runs. A zombie does not: where PID 1 does not reap
 * orphans (containers), a dead daemon or server stays a zombie, and kill(0)
 * alone would call it alive (/proc on Linux, ps elsewhere: process-table.ts,
 * loaded only when asked: the command path imports this file).
 */
import { errnoOf } from './errors';

let table: typeof import('./process-table') | undefined;

export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return errnoOf(err) === 'EPERM';
  }
  // Loaded once, when first asked (a warm question asks for each server it uses).
  table ??= require('./process-table') as typeof import('./process-table');
  return !table.isZombie(pid);
}
