/**
 * Looking, with no daemon running: `servers`, `servers --for main.go`,
 * `trust --explain` and `daemon status` in a copy of the go-shapes fixture,
 * this build against the build before it (bench/harness.ts beforeBuild),
 * each with a daemon socket and a cache of its own, interleaved; before
 * each run any daemon is stopped, as a user's first look of the day finds
 * none. Each command asked once unmeasured first (the caches a binary fills
 * once: versions). Prints each command's median and spread, and whether a
 * daemon ran after it. `bun bench/looking.ts` (BENCH_RUNS=10).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeBuild, fmt, LSPQ, median, ownCache, ownDaemon, quantile, table, timeCommand, toolsEnv } from './harness';
import { REPO } from './projects';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const work = mkdtempSync(join(tmpdir(), 'lspq-looking-'));
const dir = join(work, 'go-shapes');
cpSync(join(REPO, 'test', 'fixtures', 'go-shapes'), dir, { recursive: true });
const before = await beforeBuild();
const builds = [
  { name: 'this build', binary: LSPQ },
  { name: `before (${before.commit.slice(0, 12)})`, binary: before.binary },
].map((b, i) => ({ ...b, env: ownDaemon(ownCache(toolsEnv(), join(work, `cache-${i}`)), `looking-${i}`) }));
const LOOKS = [['servers'], ['servers', '--for', 'main.go'], ['trust', '--explain'], ['daemon', 'status']];

const rows: (string | number)[][] = [];
for (const look of LOOKS) {
  const times = builds.map(() => [] as number[]);
  const started = builds.map(() => 0);
  for (const b of builds) await timeCommand([b.binary, ...look], dir, b.env);
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < builds.length; k++) {
      const which = (i + k) % builds.length;
      const b = builds[which]!;
      await timeCommand([b.binary, 'daemon', 'stop'], dir, b.env);
      times[which]!.push((await timeCommand([b.binary, ...look], dir, b.env)).ms);
      if (existsSync(b.env.LSPQ_SOCKET!)) started[which]!++;
    }
  }
  builds.forEach((b, k) => {
    const t = times[k]!;
    rows.push([
      `\`lspq ${look.join(' ')}\``,
      b.name,
      fmt(median(t)),
      `${fmt(quantile(t, 0.1))}-${fmt(quantile(t, 0.9))}`,
      `${started[k]} of ${RUNS}`,
    ]);
  });
}
console.log(table(['command (no daemon running)', 'build', 'median ms', 'p10-p90', 'a daemon ran after it'], rows));
for (const b of builds) await timeCommand([b.binary, 'daemon', 'stop'], dir, b.env);
rmSync(work, { recursive: true, force: true });
