/**
 * git as a library for lspq's own questions (diag's file lists, the staged
 * content of a file, a diff): parsed data, read under the same policy as
 * `lspq git` read commands. The repository's configuration is read once,
 * when it is opened, not for every question asked of it. Nothing the
 * repository configures (fsmonitor, filters, diff drivers, textconv) runs.
 */
import { LspqError } from '../common/errors';
import { gitEnv } from './invocation';
import { neutralize } from './neutralize';
import { parseStatus, type StatusEntry, type StatusJson } from './parse-status';
import { readConfig, spawnGit } from './run';

export class GitRepo {
  private constructor(
    /** The work tree's top level, absolute. */
    readonly top: string,
    private readonly env: Record<string, string>,
  ) {}

  /** The repository around `cwd`, or undefined when there is none (or git is not installed). */
  static async open(cwd: string, env: Record<string, string>): Promise<GitRepo | undefined> {
    let config: Awaited<ReturnType<typeof readConfig>>;
    try {
      config = await readConfig(cwd, env);
    } catch (err) {
      if (err instanceof LspqError && err.code === 'git_failed') return undefined;
      throw err;
    }
    const safe = gitEnv(env, neutralize(config, 'read', env), [['core.quotepath', 'false']]);
    const top = await spawnGit(['--no-pager', 'rev-parse', '--show-toplevel'], { cwd, env: safe, stderr: 'pipe' });
    if (top.exit !== 0) return undefined; // not a repository, or a bare one
    return new GitRepo(top.stdout.trim(), safe);
  }

  private async read(args: string[], what: string): Promise<string> {
    const r = await spawnGit(['--no-pager', ...args], { cwd: this.top, env: this.env, stderr: 'pipe' });
    if (r.exit !== 0)
      throw new LspqError('git_failed', `${what} failed: ${r.stderr.trim() || `git exited with code ${r.exit}`}`);
    return r.stdout;
  }

  async status(): Promise<StatusJson> {
    return parseStatus(
      await this.read(
        ['status', '--ignore-submodules=dirty', '--untracked-files=all', '--porcelain=v2', '--branch', '-z'],
        'git status',
      ),
    );
  }

  /** Tracked and untracked files, .gitignore honoured, as absolute paths. */
  async lsFiles(): Promise<string[]> {
    const out = await this.read(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], 'git ls-files');
    return out
      .split('\0')
      .filter(Boolean)
      .map((f) => `${this.top}/${f}`);
  }

  /** Staged, and changed or untracked (staged included) files, deleted ones left out, as sorted absolute paths. */
  async changedFiles(): Promise<{ staged: string[]; changed: string[] }> {
    const status = await this.status();
    const at = (p: string) => `${this.top}/${p}`;
    const live = (entries: StatusEntry[]) => entries.filter((e) => e.status !== 'deleted').map((e) => at(e.path));
    const staged = live(status.staged);
    const changed = [...new Set([...staged, ...live(status.unstaged), ...status.untracked.map(at)])].sort();
    return { staged: staged.sort(), changed };
  }

  /** The commit `rev` names (a branch, a tag, HEAD~1, a hash), or undefined when it names none. */
  async commitOf(rev: string): Promise<string | undefined> {
    if (rev.startsWith('-')) return undefined; // an option, not a revision
    const r = await spawnGit(
      ['--no-pager', 'rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`],
      {
        cwd: this.top,
        env: this.env,
        stderr: 'pipe',
      },
    );
    return r.exit === 0 ? r.stdout.trim() : undefined;
  }

  /**
   * The files that differ between `commit` and the work tree (or, `staged`,
   * the index), renames followed: each file's path now and at the commit
   * (undefined: added since; deleted files are left out). Untracked files
   * count as added in the work tree.
   */
  async changedSince(commit: string, staged: boolean): Promise<{ path: string; was?: string }[]> {
    const args = [
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--name-status',
      '-z',
      '-M',
      ...(staged ? ['--cached'] : []),
    ];
    const fields = (await this.read([...args, commit, '--'], 'git diff --name-status')).split('\0');
    const at = (p: string) => `${this.top}/${p}`;
    const out: { path: string; was?: string }[] = [];
    let i = 0;
    const field = () => {
      const f = fields[i++];
      if (f === undefined) throw new Error('git diff --name-status ended inside an entry');
      return f;
    };
    while (i < fields.length - 1) {
      const status = field();
      if (status.startsWith('R') || status.startsWith('C')) {
        const was = field();
        const path = field();
        out.push(status.startsWith('R') ? { path: at(path), was: at(was) } : { path: at(path) });
      } else {
        const path = field();
        if (status === 'D') continue;
        out.push(status === 'A' ? { path: at(path) } : { path: at(path), was: at(path) });
      }
    }
    if (!staged) {
      const untracked = await this.read(['ls-files', '-z', '--others', '--exclude-standard'], 'git ls-files');
      for (const p of untracked.split('\0').filter(Boolean)) out.push({ path: at(p) });
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /**
   * The commit where HEAD left the default branch (origin's HEAD, else
   * origin/main, origin/master, main, master), or undefined: none of them,
   * or no common history.
   */
  async mergeBaseWithDefault(): Promise<string | undefined> {
    const named = await spawnGit(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], {
      cwd: this.top,
      env: this.env,
      stderr: 'pipe',
    });
    const candidates = [
      ...(named.exit === 0 ? [named.stdout.trim()] : []),
      'refs/remotes/origin/main',
      'refs/remotes/origin/master',
      'refs/heads/main',
      'refs/heads/master',
    ];
    for (const ref of candidates) {
      if (!(await this.commitOf(ref))) continue;
      const r = await spawnGit(['merge-base', 'HEAD', ref], { cwd: this.top, env: this.env, stderr: 'pipe' });
      return r.exit === 0 ? r.stdout.trim() : undefined;
    }
    return undefined;
  }

  /** The text of `path` (absolute, inside the work tree) at `commit`. */
  async textAt(commit: string, path: string): Promise<string> {
    const relative = path.slice(this.top.length + 1);
    return this.read(
      ['show', '--no-ext-diff', '--no-textconv', `${commit}:${relative}`],
      `reading ${relative} at ${commit}`,
    );
  }

  /** The staged content of `path` (absolute, inside the work tree): what a commit would hold. */
  async staged(path: string): Promise<string> {
    const relative = path.slice(this.top.length + 1);
    return this.read(['show', '--no-ext-diff', '--no-textconv', `:${relative}`], `reading the staged ${relative}`);
  }
}
