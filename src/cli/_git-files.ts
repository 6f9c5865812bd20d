/**
 * The files `diag --staged` and plain `diag` look at, asked of git through
 * lspq's own git layer: a read under the git policy, so a hostile
 * repository's fsmonitor, filters and diff drivers run nothing here either.
 */
import { joinPath as join } from '../protocol/paths';
import { LspqError } from '../errors';
import type { StatusJson } from '../git/parse-status';

interface Generic {
  exit: number;
  stdout: string;
}

async function askGit<T>(words: string[], cwd: string, env: Record<string, string>): Promise<T | undefined> {
  const { runGit } = require('../git/command') as typeof import('../git/command');
  try {
    const out = await runGit(words, { json: true, allowWrite: false, allowDestructive: false, color: false, cwd, env });
    return JSON.parse(out.stdout) as T;
  } catch (err) {
    if (err instanceof LspqError && err.code === 'git_failed') return undefined; // not a repository
    throw err;
  }
}

async function topLevel(cwd: string, env: Record<string, string>): Promise<string | undefined> {
  const r = await askGit<Generic>(['rev-parse', '--show-toplevel'], cwd, env);
  return r && r.exit === 0 ? r.stdout.trim() : undefined;
}

/** Staged, changed and untracked files, deleted ones left out; undefined outside a git repository. */
export async function gitFiles(cwd: string, env: Record<string, string>): Promise<{ staged: string[]; changed: string[] } | undefined> {
  const top = await topLevel(cwd, env);
  if (!top) return undefined;
  const status = await askGit<StatusJson>(['status', '--untracked-files=all'], top, env);
  if (!status) return undefined;
  const live = (entries: StatusJson['staged']) => entries.filter((e) => e.status !== 'deleted').map((e) => join(top, e.path));
  const staged = live(status.staged);
  const changed = [...new Set([...staged, ...live(status.unstaged), ...status.untracked.map((p) => join(top, p))])].sort();
  return { staged: staged.sort(), changed };
}

export async function stagedFiles(cwd: string, env: Record<string, string>): Promise<string[]> {
  const files = await gitFiles(cwd, env);
  if (!files) throw new LspqError('usage', '--staged needs a git repository; run it inside one');
  return files.staged;
}
