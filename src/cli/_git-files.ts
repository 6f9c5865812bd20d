/**
 * The files `diag --staged` and plain `diag` look at, from git. git runs
 * with no fsmonitor hook and no external diff, so a hostile repository's
 * configuration runs nothing here.
 */
import { join } from 'node:path';
import { LspqError } from '../errors';

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const proc = Bun.spawnSync(['git', '-c', 'core.fsmonitor=', '-c', 'diff.external=', ...args], {
    cwd,
    stdin: 'ignore',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
  });
  return { ok: proc.exitCode === 0, out: proc.stdout.toString() };
}

function topLevel(cwd: string): string | undefined {
  const r = git(cwd, ['rev-parse', '--show-toplevel']);
  return r.ok ? r.out.trim() : undefined;
}

const names = (top: string, out: string) => out.split('\0').filter(Boolean).map((f) => join(top, f));

/** Added, copied, modified or renamed files in the index (what a pre-commit hook checks). */
export function stagedFiles(cwd: string): string[] {
  const top = topLevel(cwd);
  if (!top) throw new LspqError('usage', '--staged needs a git repository; run it inside one');
  return names(top, git(top, ['diff', '--cached', '--name-only', '-z', '--no-ext-diff', '--diff-filter=ACMR']).out);
}

/** Files changed against HEAD (staged or not) plus untracked ones; undefined outside a git repository. */
export function changedFiles(cwd: string): string[] | undefined {
  const top = topLevel(cwd);
  if (!top) return undefined;
  const head = git(top, ['diff', 'HEAD', '--name-only', '-z', '--no-ext-diff', '--diff-filter=ACMR']);
  const tracked = head.ok ? head.out : git(top, ['diff', '--cached', '--name-only', '-z', '--no-ext-diff', '--diff-filter=ACMR']).out;
  const untracked = git(top, ['ls-files', '--others', '--exclude-standard', '-z']).out;
  return [...new Set([...names(top, tracked), ...names(top, untracked)])].sort();
}
