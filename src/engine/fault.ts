/**
 * Fault injection for the tests of edits across crashes: with
 * LSPQ_TEST_CRASH_AT=N in its environment, the process kills itself with
 * SIGKILL at the N-th crash point it passes (each step of writing an
 * edit), as `kill -9` would at that instant; LSPQ_TEST_CRASH_COUNT=FILE
 * keeps the number of points passed in FILE, so a test knows how many
 * there are. Unset, a crash point costs a comparison.
 */
import { writeFileSync } from 'node:fs';

let left = Number(process.env.LSPQ_TEST_CRASH_AT ?? 0) || 0;
const countFile = process.env.LSPQ_TEST_CRASH_COUNT;
let passed = 0;

export function crashPoint(_what: string): void {
  if (countFile) writeFileSync(countFile, String(++passed));
  if (left > 0 && --left === 0) process.kill(process.pid, 'SIGKILL');
}

/**
 * With LSPQ_TEST_STRAY_REJECTION=1 in the daemon's environment, every
 * question also leaves a promise rejected with no one to catch it: a
 * handler's stray rejection, for the test that the daemon logs it and
 * goes on serving.
 */
export function strayRejection(): void {
  if (process.env.LSPQ_TEST_STRAY_REJECTION === '1') void Promise.reject(new Error('a stray rejection (test)'));
}
