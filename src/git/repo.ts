/**
 * git as a library for lspq's own questions (diag's file lists, the staged
 * content of a file, a diff): parsed data, read under the same policy as
 * `lspq git` read commands. The repository's configuration is read once,
 * when it is opened, not for every question asked of it. Nothing the
 * repository configures (fsmonitor, filters, diff drivers, textconv) runs.
 */
import { LspqError } from '../errors';
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

  /** The staged content of `path` (absolute, inside the work tree): what a commit would hold. */
  async staged(path: string): Promise<string> {
    const relative = path.slice(this.top.length + 1);
    return this.read(['show', '--no-ext-diff', '--no-textconv', `:${relative}`], `reading the staged ${relative}`);
  }
}
