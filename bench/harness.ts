/** Timing helpers shared by the benchmarks: whole commands, statistics, the environment. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileOptions } from '../scripts/build';
import { REPO } from './projects';

export const RUNS = Number(process.env.BENCH_RUNS ?? 20);
export const LSPQ = process.env.LSPQ_BENCH_BIN ?? join(REPO, 'dist', 'lspq');

export function toolsEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('LSPQ_')) env[k] = v;
  env.PATH = [join(REPO, '.tools', 'bin'), join(REPO, '.tools', 'node_modules', '.bin'), env.PATH ?? ''].join(':');
  env.NO_COLOR = '1';
  return { ...env, ...extra };
}

/** A private daemon socket for the benchmark run. */
export const benchEnv = toolsEnv({ LSPQ_SOCKET: join(mkdtempSync(join(tmpdir(), 'lspq-bench-')), 'daemon.sock') });

export interface Timed {
  ms: number;
  stdout: string;
  exit: number;
}

export async function timeCommand(argv: string[], cwd: string, env = benchEnv): Promise<Timed> {
  const start = performance.now();
  const proc = Bun.spawn(argv, { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
  const stdout = await new Response(proc.stdout).text();
  const exit = await proc.exited;
  return { ms: performance.now() - start, stdout, exit };
}

export interface Ran {
  ms: number;
  stdout: string;
  stderr: string;
  exit: number;
}

/** lspq given ARGS in `cwd`, with `stdin` whole (a hook's input, a patch): its time, both outputs and exit. */
export async function runLspq(args: string[], cwd: string, env: Record<string, string>, stdin?: string): Promise<Ran> {
  const start = performance.now();
  const proc = Bun.spawn([LSPQ, ...args], {
    cwd,
    env,
    stdin: stdin === undefined ? 'ignore' : new TextEncoder().encode(stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { ms: performance.now() - start, stdout, stderr, exit };
}

export async function repeat(n: number, fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

export const median = (xs: number[]) => quantile(xs, 0.5);
export const p90 = (xs: number[]) => quantile(xs, 0.9);
export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Compiles a benchmark's own binary (hello-world, the floor client) exactly as lspq is compiled. */
export async function compileBench(source: string, outfile: string): Promise<void> {
  const result = await Bun.build({ entrypoints: [source], ...compileOptions(outfile) });
  if (!result.success) throw new Error(`could not compile ${source}: ${result.logs.map(String).join('\n')}`);
}

export const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 50);

/** Measurements taken in turn, rotating which goes first, each after a quiet moment. */
export async function interleaved(sides: (() => Promise<number>)[]): Promise<number[][]> {
  const times: number[][] = sides.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      await Bun.sleep(SETTLE_MS);
      times[side]!.push(await sides[side]!());
    }
  }
  return times;
}

/**
 * The build before this change, to measure side by side with it: the
 * binary LSPQ_BENCH_BEFORE names, else BENCH_BEFORE (a commit; where this
 * branch left main by default) compiled into bench/.work/before-COMMIT (its sources from git
 * archive, this checkout's node_modules), once per commit.
 */
export async function beforeBuild(): Promise<{ binary: string; commit: string }> {
  if (process.env.LSPQ_BENCH_BEFORE) return { binary: process.env.LSPQ_BENCH_BEFORE, commit: 'LSPQ_BENCH_BEFORE' };
  const { existsSync, mkdirSync, symlinkSync } = await import('node:fs');
  const commit = beforeCommit();
  const dir = join(REPO, 'bench', '.work', `before-${commit.slice(0, 12)}`);
  const binary = join(dir, 'dist', 'lspq');
  if (existsSync(binary)) return { binary, commit };
  mkdirSync(dir, { recursive: true });
  const unpack = Bun.spawnSync(['sh', '-c', `git archive ${commit} | tar -x -C '${dir}'`], { cwd: REPO });
  if (unpack.exitCode !== 0) throw new Error(`git archive ${commit} failed: ${unpack.stderr.toString()}`);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const built = Bun.spawnSync([process.execPath, join(dir, 'scripts', 'build.ts')], { cwd: dir, stderr: 'pipe' });
  if (built.exitCode !== 0 || !existsSync(binary))
    throw new Error(`building ${commit} failed: ${built.stderr.toString()}`);
  return { binary, commit };
}

/** The commit of the build before this change: BENCH_BEFORE, else where this branch left main. */
export function beforeCommit(): string {
  const base = Bun.spawnSync(['git', 'merge-base', 'HEAD', 'main'], { cwd: REPO }).stdout.toString().trim();
  const rev = process.env.BENCH_BEFORE ?? (base || 'main');
  const parsed = Bun.spawnSync(['git', 'rev-parse', '--verify', `${rev}^{commit}`], { cwd: REPO });
  if (parsed.exitCode !== 0) throw new Error(`BENCH_BEFORE=${rev} names no commit here`);
  return parsed.stdout.toString().trim();
}

/** An environment like `env` with a daemon socket of its own: two builds measured side by side never share one. */
export function ownDaemon(env: Record<string, string>, name: string): Record<string, string> {
  return { ...env, LSPQ_SOCKET: join(mkdtempSync(join(tmpdir(), `lspq-bench-${name}-`)), 'daemon.sock') };
}

/**
 * `env` with lspq's cache (its tables, what it knows of servers) in `dir`,
 * and Go's build cache where it was: Go keeps it under XDG_CACHE_HOME too,
 * and a new one makes scip-go compile GOROOT again (an hour here).
 */
export function ownCache(env: Record<string, string>, dir: string): Record<string, string> {
  const goCache = env.GOCACHE ?? Bun.spawnSync(['go', 'env', 'GOCACHE'], { env }).stdout.toString().trim();
  return { ...env, XDG_CACHE_HOME: dir, ...(goCache ? { GOCACHE: goCache } : {}) };
}
