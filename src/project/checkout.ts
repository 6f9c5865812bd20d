/**
 * Where a checkout begins: the nearest folder with a `.git` entry, a
 * boundary for every upward search (a server's root, a workspace's top,
 * the index to use, the folder trust is recorded for). Decided without git:
 * whether to run anything found there is trust's, never git's
 * (trust/decision.ts).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder at or above `dir` with a `.git` entry: where looking upward for a project's files stops. */
export function checkoutTop(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}
