/**
 * No question waits behind another's work: one client asks a warm `def`
 * (go-shapes, gopls) in a loop, alone and then while another client does
 * one heavy thing at a time through the same daemon:
 *   - the first question from an index (its table made from the SCIP file);
 *   - a rename touching 2,000 TypeScript files, with its leftover search;
 *   - `symbols -w` across a workspace of 50 TypeScript packages;
 *   - `diag --all` over that workspace.
 * Prints the warm def's median and slowest answer alone and beside each,
 * and the longest the daemon's thread was held meanwhile (LSPQ_WATCH_HOLDS:
 * what no other question can run during, apart from the machine's cores).
 *
 *   bun bench/beside.ts            (BENCH_INDEX=FILE.scip for a large index)
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bulkProject } from '../test/helpers/bulk-project';
import { benchEnv, fmt, LSPQ, median, table, timeCommand } from './harness';
import { REPO } from './projects';

const work = mkdtempSync(join(tmpdir(), 'lspq-beside-'));
const env = { ...benchEnv, LSPQ_TRUST: 'all', XDG_CACHE_HOME: join(work, 'cache'), LSPQ_WATCH_HOLDS: '5' };
const daemonLog = join(dirname(benchEnv.LSPQ_SOCKET!), 'daemon.log');

/** The longest hold of the daemon's thread logged since `from` (the log's length then). */
function longestHold(from: number): number {
  const held = readFileSync(daemonLog, 'utf8')
    .slice(from)
    .matchAll(/held the thread ([0-9.]+) ms/g);
  return Math.max(0, ...[...held].map((m) => Number(m[1])));
}
const logLength = () => readFileSync(daemonLog, 'utf8').length;
const go = join(work, 'go-shapes');
cpSync(join(REPO, 'test', 'fixtures', 'go-shapes'), go, { recursive: true });
const DEF = [LSPQ, 'def', 'main.go:7:TotalArea'];

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
async function loopDef(done: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  while (!finished || times.length < 5) times.push((await timeCommand(DEF, go, env)).ms);
  return times;
}

const ts = bulkProject('ts', 2000);
const ws = workspace(50);
// Everything warm before anything is timed: the daemon, gopls, the TypeScript servers.
await timeCommand(DEF, go, env);
await timeCommand([LSPQ, 'refs', `${ts.decl}:${ts.name('helper')}`], ts.dir, env);
await timeCommand([LSPQ, 'symbols', '-w', 'shared1_'], ws, env);

const aloneFrom = logLength();
const alone = await loopDef(Bun.sleep(3_000));
const aloneHeld = longestHold(aloneFrom);
const heavy: [string, () => Promise<unknown>][] = [
  ...(process.env.BENCH_INDEX
    ? ([
        [
          'first question from an index (its table made)',
          () =>
            timeCommand([LSPQ, 'symbols', '-w', 'Join', '--index', process.env.BENCH_INDEX!, '--index-only'], go, env),
        ],
      ] as [string, () => Promise<unknown>][])
    : []),
  [
    'rename over 2,000 files, with its leftover search',
    () => timeCommand([LSPQ, 'rename', `${ts.decl}:${ts.name('helper')}`, 'renamed', '--dry-run'], ts.dir, env),
  ],
  ['symbols -w across 50 packages', () => timeCommand([LSPQ, 'symbols', '-w', 'shared', '--limit', '1000'], ws, env)],
  ['diag --all over 50 packages', () => timeCommand([LSPQ, 'diag', '--all', '--timeout', '300'], ws, env)],
];
const rows: (string | number)[][] = [
  ['nothing (alone)', fmt(median(alone)), fmt(Math.max(...alone)), alone.length, '', fmt(aloneHeld)],
];
for (const [what, run] of heavy) {
  const from = logLength();
  const started = performance.now();
  const job = run();
  const times = await loopDef(job);
  const took = performance.now() - started;
  rows.push([what, fmt(median(times)), fmt(Math.max(...times)), times.length, fmt(took), fmt(longestHold(from))]);
}
console.log(
  table(
    [
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
await timeCommand([LSPQ, 'daemon', 'stop'], go, env);
rmSync(ts.dir, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });
