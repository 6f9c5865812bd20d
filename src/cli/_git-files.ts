/**
 * The files `diag --staged` and plain `diag` look at, asked of git through
 * lspq's git library: reads under the git policy, so a hostile
 * repository's fsmonitor, filters and diff drivers run nothing here either.
 */
import { LspqError } from '../errors';
import type { StatusEntry } from '../git/parse-status';

/** Staged, changed and untracked files, deleted ones left out; undefined outside a git repository. */
export async function gitFiles(cwd: string, env: Record<string, string>): Promise<{ staged: string[]; changed: string[] } | undefined> {
  const { GitRepo } = require('../git/repo') as typeof import('../git/repo');
  const repo = await GitRepo.open(cwd, env);
  if (!repo) return undefined;
  const status = await repo.status();
  const at = (p: string) => `${repo.top}/${p}`;
  const live = (entries: StatusEntry[]) => entries.filter((e) => e.status !== 'deleted').map((e) => at(e.path));
  const staged = live(status.staged);
  const changed = [...new Set([...staged, ...live(status.unstaged), ...status.untracked.map(at)])].sort();
  return { staged: staged.sort(), changed };
}

export async function stagedFiles(cwd: string, env: Record<string, string>): Promise<string[]> {
  const files = await gitFiles(cwd, env);
  if (!files) throw new LspqError('usage', '--staged needs a git repository; run it inside one');
  return files.staged;
}
