/**
 * One question's extra servers against other projects' warm ones: six
 * small Go projects (copies of the go-shapes fixture) each asked a `def`
 * (a warm gopls each), then `refs` of NewWatcher in fsnotify 1.7.0 (from
 * the Go module proxy), whose backends are files for several platforms:
 * gopls answers for this one, and a gopls per other build configuration is
 * started for the rest. Then each of the six is asked its `def` again. This
 * build and the build before it (bench/harness.ts beforeBuild), each with
 * a daemon of its own and default settings, in turn. Prints markdown;
 * `bun bench/extra-servers.ts` (BENCH_RUNS=3 rounds).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeBuild, fmt, LSPQ, median, ownDaemon, table, timeCommand, toolsEnv } from './harness';
import { REPO, WORK } from './projects';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 3);
const OTHERS = 6;
const env = toolsEnv({ LSPQ_TRUST: 'all', GOFLAGS: '-mod=mod' });

/** fsnotify's sources from the Go module proxy, copied out of the read-only module cache. */
function fsnotify(): string {
  const root = join(WORK, 'fsnotify');
  if (existsSync(root)) return root;
  const r = Bun.spawnSync(['go', 'mod', 'download', '-json', 'github.com/fsnotify/fsnotify@v1.7.0'], {
    cwd: WORK,
    env,
  });
  const dir = (JSON.parse(r.stdout.toString()) as { Dir?: string }).Dir;
  if (!dir) throw new Error(`go mod download of fsnotify failed: ${r.stderr.toString()}`);
  cpSync(dir, root, { recursive: true });
  Bun.spawnSync(['chmod', '-R', 'u+w', root]);
  Bun.spawnSync(['go', 'mod', 'download'], { cwd: root, env });
  // A checkout of its own, as a user's is (inside lspq's, bench/.work is ignored: git grep would see no file).
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'v1.7.0'],
  ])
    Bun.spawnSync(['git', ...args], { cwd: root, env });
  return root;
}

const fs = fsnotify();
const line =
  readFileSync(join(fs, 'backend_inotify.go'), 'utf8')
    .split('\n')
    .findIndex((l) => l.startsWith('func NewWatcher(')) + 1;
const others = Array.from({ length: OTHERS }, (_, i) => {
  const dir = join(WORK, 'extra-servers', `other-${i}`);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    cpSync(join(REPO, 'test', 'fixtures', 'go-shapes'), dir, { recursive: true });
  }
  return dir;
});
const DEF = ['def', 'main.go:7:TotalArea'];
const before = await beforeBuild();
const builds = [
  { name: 'this build', binary: LSPQ },
  { name: `before (${before.commit.slice(0, 12)})`, binary: before.binary },
];

interface Held {
  root: string;
  pid: number;
  extra?: boolean;
  memoryBytes: number | null;
}
const rows: (string | number)[][] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < builds.length; k++) {
    const b = builds[(round + k) % builds.length]!;
    const own = ownDaemon(env, 'extra');
    const status = async () =>
      JSON.parse((await timeCommand([b.binary, 'daemon', 'status', '--json'], fs, own)).stdout) as {
        servers: Held[];
        serversMemoryBytes: number;
      };
    for (const dir of others) await timeCommand([b.binary, ...DEF], dir, own);
    const warm = (await status()).servers.filter((s) => others.includes(s.root));
    const refs = await timeCommand(
      [b.binary, 'refs', `backend_inotify.go:${line}:NewWatcher`, '--timeout', '300'],
      fs,
      own,
    );
    const after = await status();
    const kept = after.servers.filter((s) => warm.some((w) => w.pid === s.pid));
    const extras = after.servers.filter((s) => s.root === fs).length - 1;
    const next: number[] = [];
    for (const dir of others) next.push((await timeCommand([b.binary, ...DEF], dir, own)).ms);
    rows.push([
      round + 1,
      b.name,
      fmt(refs.ms),
      refs.stdout.trim().split('\n').length,
      extras,
      `${kept.length} of ${warm.length}`,
      fmt((after.serversMemoryBytes ?? 0) / 1_048_576),
      fmt(median(next)),
      fmt(Math.max(...next)),
    ]);
    await timeCommand([b.binary, 'daemon', 'stop'], fs, own);
  }
}
console.log(
  table(
    [
      'round',
      'build',
      'refs NewWatcher ms (cold)',
      'places',
      "other builds' gopls",
      'other projects’ gopls kept',
      'servers MB after',
      'next def in the others: median ms',
      'slowest ms',
    ],
    rows,
  ),
);
rmSync(join(WORK, 'extra-servers'), { recursive: true, force: true });
