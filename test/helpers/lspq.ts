/**
 * Runs lspq as a user would: a separate process, its own daemon socket per
 * test file, language servers from .tools/ (scripts/install-servers.sh).
 * LSPQ_TEST_BIN=dist/lspq runs the compiled binary instead of the source.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processRuns } from '../../src/common/process';
import { checkOutput } from './schema';

export const isAlive = processRuns;

export const REPO = join(import.meta.dir, '..', '..');
export const FIXTURES = join(REPO, 'test', 'fixtures');

export interface RunResult {
  stdout: string;
  stderr: string;
  exit: number;
}

export function toolsPath(): string {
  return [join(REPO, '.tools', 'bin'), join(REPO, '.tools', 'node_modules', '.bin'), process.env.PATH ?? ''].join(':');
}

export function lspqArgv(): string[] {
  const bin = process.env.LSPQ_TEST_BIN;
  return bin ? [bin.startsWith('/') ? bin : join(REPO, bin)] : [process.execPath, join(REPO, 'src', 'main.ts')];
}

/** Runs a process to completion with `input` on its stdin (else stdin closed), capturing both outputs. */
export async function capture(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  input?: string,
): Promise<RunResult> {
  const proc = Bun.spawn(argv, {
    cwd,
    env,
    stdin: input === undefined ? 'ignore' : 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (input !== undefined && proc.stdin) {
    proc.stdin.write(input);
    await proc.stdin.end();
  }
  const [stdout, stderr, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, exit };
}

export class Lspq {
  readonly dir = mkdtempSync(join(tmpdir(), 'lspq-test-'));
  readonly socket = join(this.dir, 'run', 'daemon.sock');

  /**
   * The suite's fixtures are this project's own: trusted (LSPQ_TRUST=all,
   * as its docs say for CI), so every server runs as configured. The
   * tests of trust itself ask with `{ trusting: false }`: only what the
   * user trusted, as a new user of a cloned repository has it; with no box
   * (the allowlists) unless `box` names one.
   */
  constructor(private readonly options: { trusting?: boolean; box?: 'bubblewrap' | 'landlock' | 'off' } = {}) {}

  /**
   * The caller's environment, fixed where it would decide which servers
   * run: only the tests' PATH, no user tool folders, no activated Python
   * environment. `extra` overrides; a key set to undefined is removed.
   */
  env(extra: Record<string, string | undefined> = {}): Record<string, string> {
    const env: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('LSPQ_')) env[k] = v;
    delete env.VIRTUAL_ENV;
    const all: Record<string, string | undefined> = {
      ...env,
      PATH: toolsPath(),
      LSPQ_SOCKET: this.socket,
      LSPQ_TOOL_DIRS: '',
      NO_COLOR: '1',
      XDG_CONFIG_HOME: join(this.dir, 'config'),
      XDG_CACHE_HOME: join(this.dir, 'cache'),
      LSPQ_TRUST: this.options.trusting === false ? undefined : 'all',
      // Untrusted tests say which box they test; those written for the allowlists (no box) ask for none.
      LSPQ_BOX: this.options.box ?? (this.options.trusting === false ? 'off' : undefined),
      ...extra,
    };
    return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  }

  /** Runs lspq; a --json answer (or a batch's lines) must match the published schema. */
  async run(
    args: string[],
    options: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string } = {},
  ): Promise<RunResult> {
    const env = this.env(options.env);
    const r = await capture([...lspqArgv(), ...args], options.cwd ?? REPO, env, options.stdin);
    checkOutput(args, env, r.stdout);
    return r;
  }

  async json<T = Record<string, unknown>>(
    args: string[],
    options: { cwd?: string; env?: Record<string, string | undefined> } = {},
  ): Promise<T> {
    const r = await this.run([...args, '--json'], options);
    try {
      return JSON.parse(r.stdout) as T;
    } catch {
      throw new Error(`not JSON (exit ${r.exit}): ${r.stdout}\n${r.stderr}`);
    }
  }

  /** Stops the daemon and checks that nothing it started is still alive. */
  async stop(): Promise<number[]> {
    let pids: number[] = [];
    if (existsSync(this.socket)) {
      const status = await this.json<{ running: boolean; pid?: number; servers?: { pid: number }[] }>([
        'daemon',
        'status',
      ]);
      pids = [...(status.pid ? [status.pid] : []), ...(status.servers ?? []).map((s) => s.pid)];
      await this.run(['daemon', 'stop']);
    }
    const alive = pids.filter(isAlive);
    rmSync(this.dir, { recursive: true, force: true });
    return alive;
  }
}

/** clangd needs absolute paths in compile_commands.json: written for wherever the checkout is. */
export function prepareCFixture(): void {
  const dir = join(FIXTURES, 'c-shapes');
  const files = ['main.c', 'circle.c', 'square.c', 'geometry.c'];
  const db = files.map((file) => ({ directory: dir, file, arguments: ['cc', '-std=c11', '-Wall', '-c', file] }));
  writeFileSync(join(dir, 'compile_commands.json'), `${JSON.stringify(db, null, 1)}\n`);
}

/** A new empty folder inside the repository (so the repository's TypeScript 7 is found), removed by the caller. */
export function scratchDir(prefix: string): string {
  const { mkdirSync } = require('node:fs') as typeof import('node:fs');
  const base = join(REPO, 'test', '.scratch');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${prefix}-`));
}

/** A scratch copy of a fixture inside the repository (so the repository's TypeScript 7 is found), removed by the caller. */
export function copyFixture(name: string): string {
  const { cpSync } = require('node:fs') as typeof import('node:fs');
  const dir = scratchDir(name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/**
 * A scratch project served by one of the fake servers in test/fakes (named
 * for its misbehaviour, e.g. 'hangs-on-definition'), with a .fake file per
 * entry of `files`. Removed by the caller.
 */
export function fakeProject(
  name: string,
  fake: string,
  files: Record<string, string> = { 'a.fake': 'hello a\n', 'b.fake': 'hello b\n' },
): string {
  const { mkdirSync } = require('node:fs') as typeof import('node:fs');
  const base = join(REPO, 'test', '.scratch');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `fake-${name}-`));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const server = {
    command: process.execPath,
    args: [join(REPO, 'test', 'fakes', `${fake}.ts`), '--cancel-marker', join(dir, 'cancelled')],
    extensionToLanguage: { '.fake': 'fake' },
    rootMarkers: ['.lsp.json'],
  };
  writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ fake: server }));
  return dir;
}

export function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    stdin: 'ignore',
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/**
 * A PATH of exactly these commands (language servers and the runtimes they
 * need), found where the tests install them: a test that expects a server
 * to be missing, or a message naming a set of servers, then holds on any
 * machine, whatever else it has in /usr/bin. The folder is removed by the caller.
 */
export function exactPath(commands: string[]): string {
  const { symlinkSync } = require('node:fs') as typeof import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'lspq-path-'));
  for (const command of commands) {
    const found = Bun.which(command, { PATH: toolsPath() });
    if (!found) throw new Error(`${command} is not installed; run scripts/install-servers.sh`);
    symlinkSync(found, join(dir, command));
  }
  return dir;
}

/** Writes `lspq` into `dir` as a user has it on PATH: the binary (or the sources) under test. */
export function lspqOnPath(dir: string): void {
  const { chmodSync } = require('node:fs') as typeof import('node:fs');
  const argv = lspqArgv()
    .map((w) => `'${w}'`)
    .join(' ');
  writeFileSync(join(dir, 'lspq'), `#!/bin/sh\nexec ${argv} "$@"\n`);
  chmodSync(join(dir, 'lspq'), 0o755);
}
