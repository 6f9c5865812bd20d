/**
 * Temporary git repositories for the `lspq git` tests: a private HOME and
 * no system config (so the machine's git setup cannot leak in), fixed
 * identities and dates (so hashes are stable), marker scripts that prove
 * whether a program ran, and lspq run as a separate process.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { capture, lspqArgv, type RunResult } from './lspq';

export const DATE = '2024-01-02T03:04:05+00:00';

export class TempRepo {
  readonly base = mkdtempSync(join(tmpdir(), 'lspq-git-'));
  readonly home = join(this.base, 'home');
  readonly dir: string;

  constructor(name = 'repo', init = true) {
    this.dir = join(this.base, name);
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.dir, { recursive: true });
    if (init) this.git('init', '-q', '-b', 'main');
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('GIT_') && !k.startsWith('LSPQ_')) env[k] = v;
    return {
      ...env,
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: join(this.home, '.gitconfig'),
      GIT_AUTHOR_NAME: 'Ann Author',
      GIT_AUTHOR_EMAIL: 'ann@example.com',
      GIT_AUTHOR_DATE: DATE,
      GIT_COMMITTER_NAME: 'Cy Committer',
      GIT_COMMITTER_EMAIL: 'cy@example.com',
      GIT_COMMITTER_DATE: DATE,
      LSPQ_NO_DAEMON: '1',
      NO_COLOR: '1',
      // The policy's own neutralizing, held alone: git in the box is contained.test.ts's.
      LSPQ_BOX: 'off',
      ...extra,
    };
  }

  /** Plain git, for setting up and for checking what lspq did (or proving that a vector is real). */
  git(...args: string[]): string {
    return this.gitIn(this.dir, ...args);
  }

  gitIn(cwd: string, ...args: string[]): string {
    const r = Bun.spawnSync(['git', ...args], { cwd, env: this.env(), stdin: 'ignore' });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed (${r.exitCode}): ${r.stderr.toString()}`);
    return r.stdout.toString();
  }

  /** git that may fail: for vectors whose program runs even though git then errors. */
  tryGit(...args: string[]): { stdout: string; stderr: string; exit: number } {
    const r = Bun.spawnSync(['git', ...args], { cwd: this.dir, env: this.env(), stdin: 'ignore' });
    return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exit: r.exitCode };
  }

  /** The same, without blocking: for tests whose server runs in this process. */
  async tryGitAsync(...args: string[]): Promise<number> {
    const proc = Bun.spawn(['git', ...args], {
      cwd: this.dir,
      env: this.env(),
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'ignore',
    });
    return proc.exited;
  }

  path(rel: string): string {
    return join(this.dir, rel);
  }

  write(rel: string, content: string | Uint8Array): string {
    const file = this.path(rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  }

  read(rel: string): string {
    return readFileSync(this.path(rel), 'utf8');
  }

  exists(rel: string): boolean {
    return existsSync(this.path(rel));
  }

  commitAll(message: string): string {
    this.git('add', '-A');
    this.git('commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD').trim();
  }

  /** An executable outside the repository that records that it ran, then behaves like cat (or fails at once). */
  markerScript(name: string, then: 'cat' | 'fail' = 'cat'): { script: string; marker: string } {
    const marker = join(this.base, 'markers', name);
    const script = join(this.base, 'bin', name);
    mkdirSync(dirname(marker), { recursive: true });
    mkdirSync(dirname(script), { recursive: true });
    const rest = then === 'cat' ? 'cat "$@" 2>/dev/null\nexit 0' : 'exit 1';
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n${rest}\n`);
    chmodSync(script, 0o755);
    return { script, marker };
  }

  lspq(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
    return capture([...lspqArgv(), 'git', ...args], options.cwd ?? this.dir, this.env(options.env));
  }

  /** lspq under a pseudo-terminal (script(1)), where git would start a pager. */
  async lspqOnTty(args: string[]): Promise<RunResult> {
    const quoted = [...lspqArgv(), 'git', ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    return this.onTty(quoted);
  }

  onTty(command: string): Promise<RunResult> {
    return capture(['script', '-qec', command, '/dev/null'], this.dir, this.env());
  }

  async json<T = Record<string, unknown>>(args: string[]): Promise<T> {
    const r = await this.lspq([...args, '--json']);
    try {
      return JSON.parse(r.stdout) as T;
    } catch {
      throw new Error(`not JSON (exit ${r.exit}): ${r.stdout}\n${r.stderr}`);
    }
  }

  cleanup(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}
