/**
 * One daemon per socket: the lock file holds the live daemon's pid. A lock
 * whose pid is gone (a daemon killed with SIGKILL) is stale and taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { processRuns } from '../common/process';
import { errnoOf } from '../common/errors';

/** True if this process now holds the lock. */
export function takeLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(path, 'utf8').trim());
    } catch {}
    // An empty lock is one being written right now: the writer wins.
    if (!Number.isFinite(holder) || holder <= 0 || processRuns(holder)) return false;
    try {
      unlinkSync(path);
    } catch {}
  }
  return false;
}

export function releaseLock(path: string): void {
  try {
    if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
  } catch {}
}
