/**
 * The first answer from an index `lspq index --out` built, against the
 * hundredth: GOROOT/src (std and cmd, scip-go) indexed with `--out` into
 * bench/.work (GOROOT untouched) by this build; the build before
 * (bench/harness.ts beforeBuild) gets the same SCIP file and manifest at an
 * out of its own (what its `lspq index --out` writes: the same indexer
 * over the same tree; indexing GOROOT takes minutes here, so it runs once),
 * each build with a daemon and a cache of its own. Then, interleaved, each build's first `refs` of strings.Join from a
 * new daemon (`--index FILE --index-only`, asked from GOROOT/src), as a
 * user's first question after `lspq index` is: the build before makes the
 * table at that question (its table removed before each run, so each run
 * is a first), this build finds the one `lspq index` made. Then the same
 * refs warm. Prints markdown; `bun bench/first-answer.ts` (BENCH_RUNS=5).
 * BENCH_SCIP=FILE takes an index this build's `lspq index --out` made
 * before (its manifest beside it) instead of indexing again (minutes):
 * this build's table is then made by one question, unmeasured, before
 * the runs.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeBuild, fmt, LSPQ, median, ownCache, ownDaemon, quantile, table, timeCommand, toolsEnv } from './harness';
import { WORK } from './projects';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARM_RUNS = 10;
const goroot = Bun.spawnSync(['go', 'env', 'GOROOT']).stdout.toString().trim();
const src = join(goroot, 'src');
const line =
  readFileSync(join(src, 'strings', 'strings.go'), 'utf8')
    .split('\n')
    .findIndex((l) => l.startsWith('func Join(')) + 1;
const before = await beforeBuild();

interface Side {
  name: string;
  binary: string;
  env: Record<string, string>;
  out: string;
  cache: string;
}
const sides: Side[] = [
  { name: 'this build', binary: LSPQ },
  { name: `before (${before.commit.slice(0, 12)})`, binary: before.binary },
].map((b, i) => {
  const dir = join(WORK, 'first-answer', String(i));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const cache = join(dir, 'cache');
  return { ...b, env: ownDaemon(ownCache(toolsEnv(), cache), `first-${i}`), out: join(dir, 'std.scip'), cache };
});

const REFS = (s: Side) => [s.binary, 'refs', `strings/strings.go:${line}:Join`, '--index', s.out, '--index-only'];
const rows: (string | number)[][] = [];
const built: Record<string, { ms: number; stderr: string }> = {};
const reused = process.env.BENCH_SCIP;
if (reused) {
  for (const s of sides) {
    copyFileSync(reused, s.out);
    copyFileSync(reused.replace(/\.scip$/, '.json'), s.out.replace(/\.scip$/, '.json'));
    built[s.name] = { ms: Number.NaN, stderr: `(${reused} and its manifest, copied to its own out)` };
  }
  const s = sides[0]!;
  const made = await timeCommand(REFS(s), src, s.env);
  if (made.exit !== 0 && made.exit !== 3) throw new Error(`${s.name}: the question that makes the table failed`);
} else {
  const s = sides[0]!;
  const start = performance.now();
  const proc = Bun.spawn([s.binary, 'index', '--out', s.out, '--timeout', '3600'], {
    cwd: src,
    env: s.env,
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const stderr = await new Response(proc.stderr).text();
  if ((await proc.exited) !== 0) throw new Error(`${s.name}: lspq index failed: ${stderr}`);
  built[s.name] = { ms: performance.now() - start, stderr: stderr.trim() };
  const other = sides[1]!;
  copyFileSync(s.out, other.out);
  copyFileSync(s.out.replace(/\.scip$/, '.json'), other.out.replace(/\.scip$/, '.json'));
  built[other.name] = { ms: Number.NaN, stderr: '(the same SCIP file and manifest, copied to its own out)' };
}

const first: number[][] = sides.map(() => []);
const places: string[] = [];
for (let i = 0; i < RUNS; i++) {
  for (let k = 0; k < sides.length; k++) {
    const which = (i + k) % sides.length;
    const s = sides[which]!;
    await timeCommand([s.binary, 'daemon', 'stop'], src, s.env);
    // The build before makes its table at the first question: each of its runs is a first.
    if (which === 1) rmSync(join(s.cache, 'lspq', 'tables'), { recursive: true, force: true });
    const r = await timeCommand(REFS(s), src, s.env);
    // Exit 3: the index's answer, naming the files of other build configurations it could not search (--index-only).
    if (r.exit !== 0 && r.exit !== 3) throw new Error(`${s.name}: refs failed (exit ${r.exit})`);
    places.push(String(r.stdout.trim().split('\n').length));
    first[which]!.push(r.ms);
  }
}
const warm: number[][] = sides.map(() => []);
for (let i = 0; i < WARM_RUNS; i++)
  for (const [k, s] of sides.entries()) warm[k]!.push((await timeCommand(REFS(s), src, s.env)).ms);
sides.forEach((s, k) => {
  const f = first[k]!;
  rows.push([
    s.name,
    Number.isNaN(built[s.name]!.ms) ? 'its copy' : fmt(built[s.name]!.ms / 1000),
    fmt(median(f)),
    `${fmt(Math.min(...f))}-${fmt(Math.max(...f))}`,
    fmt(median(warm[k]!)),
    `${fmt(quantile(warm[k]!, 0.1))}-${fmt(quantile(warm[k]!, 0.9))}`,
  ]);
});
console.log(
  table(
    [
      'build',
      '`lspq index --out` s',
      'first refs ms (median, new daemon)',
      'min-max',
      'warm refs ms (median)',
      'p10-p90',
    ],
    rows,
  ),
);
for (const s of sides) console.log(`\n${s.name}: ${built[s.name]!.stderr}`);
console.log(`\nplaces in each answer: ${[...new Set(places)].join(', ')}; runs: ${RUNS} first, ${WARM_RUNS} warm`);
for (const s of sides) await timeCommand([s.binary, 'daemon', 'stop'], src, s.env);
