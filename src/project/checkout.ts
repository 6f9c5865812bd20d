/**
 * Which git checkout a path belongs to, as git itself says (as git's own
 * `safe.directory` refuses a repository it cannot vouch for). A `.git`
 * entry is only a claim: a downloaded archive can ship an empty `.git/`
 * folder or a 0-byte `.git` file. The claim counts only when `git
 * rev-parse --show-toplevel`, run there with nothing the repository
 * configures running, names that very folder; any failure (not a
 * repository, dubious ownership, git missing, a time-out) means git does
 * not vouch for it, and then nothing in it counts as the user's own.
 */
import { existsSync, statSync } from 'node:fs';
import { realOf } from '../common/real-path';
import { dirname, join } from 'node:path';
import { probeEnv, runGitSync } from '../git/run';

export interface Checkout {
  /** The folder holding the `.git` entry. */
  top: string;
  /** Whether git confirms it is a work tree's top; when not, everything inside is the repository's, never the user's. */
  vouched: boolean;
}

const GIT_TIMEOUT_MS = 5_000;

/** What git said of a top, with the `.git` entry's change time it said it for (asked again when that changes). */
const vouchedCache = new Map<string, { stamp: number; vouched: boolean }>();
const CACHE_MAX = 1_000;

export { realOf };

/** The caller's environment for a git probe of another folder: no GIT_DIR or index of the caller's (a hook's) steers it. */
export function gitProbeEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (
      v === undefined ||
      /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|NAMESPACE|CEILING_DIRECTORIES)$/.test(k)
    )
      continue;
    clean[k] = v;
  }
  return probeEnv(clean);
}

const stampOf = (dotGit: string) => {
  try {
    const s = statSync(dotGit);
    return s.ctimeMs + s.ino;
  } catch {
    return Number.NaN;
  }
};

function gitVouches(top: string, env: Record<string, string | undefined>): boolean {
  const stamp = stampOf(join(top, '.git'));
  const known = vouchedCache.get(top);
  if (known && known.stamp === stamp) return known.vouched;
  // git missing, or past its time: nothing is vouched for.
  const r = runGitSync(['rev-parse', '--show-toplevel'], {
    cwd: top,
    env: gitProbeEnv(env),
    timeoutMs: GIT_TIMEOUT_MS,
  });
  const vouched = r?.exit === 0 && realOf(r.stdout.trim()) === realOf(top);
  if (vouchedCache.size >= CACHE_MAX) vouchedCache.delete(vouchedCache.keys().next().value!);
  vouchedCache.set(top, { stamp, vouched });
  return vouched;
}

/**
 * The nearest folder at or above `dir` with a `.git` entry: where looking
 * upward for a project's files stops. A boundary only, decided without git;
 * whether the checkout is the user's own is `checkoutOf`'s to say.
 */
export function checkoutTop(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The nearest folder at or above `path` with a `.git` entry, and whether git vouches for it; undefined when there is none. */
export function checkoutOf(path: string, env: Record<string, string | undefined> = process.env): Checkout | undefined {
  const top = checkoutTop(path);
  return top === undefined ? undefined : { top, vouched: gitVouches(top, env) };
}

/**
 * Whether git tracks `path` in the checkout at `top`. Only git's own "did
 * not match" (exit 1) is "not tracked"; any other failure counts as
 * tracked, the repository's.
 */
export function gitTracks(top: string, relativePath: string, env: Record<string, string | undefined>): boolean {
  const r = runGitSync(['ls-files', '--error-unmatch', '--', relativePath], {
    cwd: top,
    env: gitProbeEnv(env),
    timeoutMs: GIT_TIMEOUT_MS,
  });
  return r?.exit !== 1;
}
