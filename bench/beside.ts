/**
 * No question waits behind another's work: one client asks a warm `def`
 * (go-shapes, gopls) in a loop, alone and then while another client does
 * one heavy thing at a time through the same daemon:
 *   - the first question from an index nobody prepared (BENCH_INDEX, with
 *     its manifest beside it, copied to a new path before each run, as a
 *     user copies one in: its table is made at that question);
 *   - a rename touching 2,000 TypeScript files, with its leftover search;
 *   - `symbols -w` across a workspace of 50 TypeScript packages;
 *   - `diag --all` over that workspace.
 * Prints the warm def's median and slowest answer alone and beside each,
 * and the longest the daemon's thread was held meanwhile (LSPQ_WATCH_HOLDS:
 * what no other question can run during, apart from the machine's cores).
 * With BENCH_BEFORE_TOO=1 the build before this change (bench/harness.ts
 * beforeBuild) is measured the same way, each build with a daemon and a
 * cache of its own, the two taking turns; BENCH_ONLY=index (or rename,
 * symbols, diag) runs that heavy thing alone; BENCH_RUNS rounds (1).
 *
 *   bun bench/beside.ts            (BENCH_INDEX=FILE.scip for a large index)
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bulkProject } from '../test/helpers/bulk-project';
import { beforeBuild, benchEnv, fmt, LSPQ, median, ownCache, ownDaemon, table, timeCommand } from './harness';
import { REPO } from './projects';

const work = mkdtempSync(join(tmpdir(), 'lspq-beside-'));
const ROUNDS = Number(process.env.BENCH_RUNS ?? 1);
const only = process.env.BENCH_ONLY;

interface Build {
  name: string;
  binary: string;
  env: Record<string, string>;
  log: string;
}
const binaries = [{ name: 'this build', binary: LSPQ }];
if (process.env.BENCH_BEFORE_TOO) {
  const before = await beforeBuild();
  binaries.push({ name: `before (${before.commit.slice(0, 12)})`, binary: before.binary });
}
const builds: Build[] = binaries.map((b, i) => {
  const env = ownDaemon(
    { ...ownCache(benchEnv, join(work, `cache-${i}`)), LSPQ_TRUST: 'all', LSPQ_WATCH_HOLDS: '5' },
    `beside-${i}`,
  );
  return { ...b, env, log: join(dirname(env.LSPQ_SOCKET!), 'daemon.log') };
});

/** The longest hold of the daemon's thread logged since `from` (the log's length then). */
function longestHold(b: Build, from: number): number {
  const held = readFileSync(b.log, 'utf8')
    .slice(from)
    .matchAll(/held the thread ([0-9.]+) ms/g);
  return Math.max(0, ...[...held].map((m) => Number(m[1])));
}
const logLength = (b: Build) => (existsSync(b.log) ? readFileSync(b.log, 'utf8').length : 0);
const go = join(work, 'go-shapes');
cpSync(join(REPO, 'test', 'fixtures', 'go-shapes'), go, { recursive: true });
const DEF = ['def', 'main.go:7:TotalArea'];

/** A workspace of `n` TypeScript packages, each a tsconfig and a few files naming a shared function. */
function workspace(n: number): string {
  const root = join(work, 'ws');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
  for (let i = 0; i < n; i++) {
    const dir = join(root, 'packages', `p${i}`);
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `p${i}` }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }));
    for (let f = 0; f < 4; f++)
      writeFileSync(
        join(dir, 'src', `m${f}.ts`),
        `export function shared${i}_${f}(x: number): number {\n  return x + ${f};\n}\nexport const value${f}: string = shared${i}_${f}(1);\n`,
      );
  }
  return root;
}

/** The warm def asked in a loop until `done` settles; each answer's time. */
async function loopDef(b: Build, done: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  while (!finished || times.length < 5) times.push((await timeCommand([b.binary, ...DEF], go, b.env)).ms);
  return times;
}

/** A copy of BENCH_INDEX and its manifest at a path never asked before: its table is made at its first question. */
let copies = 0;
function copiedIndex(): string {
  const from = process.env.BENCH_INDEX!;
  const dir = join(work, 'copies', String(copies++));
  mkdirSync(dir, { recursive: true });
  copyFileSync(from, join(dir, 'index.scip'));
  const manifest = from.replace(/\.scip$/, '.json');
  if (existsSync(manifest)) copyFileSync(manifest, join(dir, 'index.json'));
  return join(dir, 'index.scip');
}

const wanted = (name: string) => !only || only === name;
const ts = wanted('rename') ? bulkProject('ts', 2000) : undefined;
const ws = wanted('symbols') || wanted('diag') ? workspace(50) : undefined;
const heavy: [string, string, (b: Build) => Promise<unknown>][] = [];
if (process.env.BENCH_INDEX && wanted('index'))
  heavy.push([
    'index',
    'first question from a copied index, in a fresh cache (its table made)',
    (b) => timeCommand([b.binary, 'symbols', '-w', 'Join', '--index', copiedIndex(), '--index-only'], go, b.env),
  ]);
if (ts)
  heavy.push([
    'rename',
    'rename over 2,000 files, with its leftover search',
    (b) => timeCommand([b.binary, 'rename', `${ts.decl}:${ts.name('helper')}`, 'renamed', '--dry-run'], ts.dir, b.env),
  ]);
if (ws) {
  if (wanted('symbols'))
    heavy.push([
      'symbols',
      'symbols -w across 50 packages',
      (b) => timeCommand([b.binary, 'symbols', '-w', 'shared', '--limit', '1000'], ws, b.env),
    ]);
  if (wanted('diag'))
    heavy.push([
      'diag',
      'diag --all over 50 packages',
      (b) => timeCommand([b.binary, 'diag', '--all', '--timeout', '300'], ws, b.env),
    ]);
}

// Everything warm before anything is timed: each build's daemon, gopls, the TypeScript servers.
for (const b of builds) {
  await timeCommand([b.binary, ...DEF], go, b.env);
  if (ts) await timeCommand([b.binary, 'refs', `${ts.decl}:${ts.name('helper')}`], ts.dir, b.env);
  if (ws) await timeCommand([b.binary, 'symbols', '-w', 'shared1_'], ws, b.env);
}

const rows: (string | number)[][] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < builds.length; k++) {
    const b = builds[(round + k) % builds.length]!;
    const aloneFrom = logLength(b);
    const alone = await loopDef(b, Bun.sleep(3_000));
    rows.push([
      round + 1,
      b.name,
      'nothing (alone)',
      fmt(median(alone)),
      fmt(Math.max(...alone)),
      alone.length,
      '',
      fmt(longestHold(b, aloneFrom)),
    ]);
  }
  for (const [, what, run] of heavy) {
    for (let k = 0; k < builds.length; k++) {
      const b = builds[(round + k) % builds.length]!;
      const from = logLength(b);
      const started = performance.now();
      const job = run(b);
      const times = await loopDef(b, job);
      const took = performance.now() - started;
      rows.push([
        round + 1,
        b.name,
        what,
        fmt(median(times)),
        fmt(Math.max(...times)),
        times.length,
        fmt(took),
        fmt(longestHold(b, from)),
      ]);
    }
  }
}
console.log(
  table(
    [
      'round',
      'build',
      'beside',
      'warm def median ms',
      'slowest ms',
      'answers',
      'the other work took ms',
      'longest hold of the daemon ms',
    ],
    rows,
  ),
);
for (const b of builds) await timeCommand([b.binary, 'daemon', 'stop'], go, b.env);
if (ts) rmSync(ts.dir, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });
