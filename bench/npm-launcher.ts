/**
 * What an npm-installed lspq costs a call beside the binary itself: the
 * packages `npm run release` packs (dist/npm/*.tgz) installed into two
 * empty folders, one as npm installs them (the install step makes the bin
 * the binary), one with --ignore-scripts (the Node launcher stays). Each
 * is timed side by side with the release's binary (dist/release, the
 * same build): `--version`, and a warm `def`
 * through the same daemon. Run `npm run release` first.
 *
 *   bun bench/npm-launcher.ts
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEnv, fmt, interleaved, median, table, timeCommand } from './harness';
import { REPO } from './projects';

const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const npm = join(REPO, 'dist', 'npm');
const work = mkdtempSync(join(tmpdir(), 'lspq-npm-bench-'));
const platform = `${process.platform}-${process.arch}`;

function install(name: string, flags: string[]): string {
  const app = join(work, name);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name": "app", "private": true}\n');
  const r = Bun.spawnSync(
    [
      'npm',
      'install',
      '--no-audit',
      '--no-fund',
      ...flags,
      join(npm, `lspq-${version}.tgz`),
      join(npm, `lspq-${platform}-${version}.tgz`),
    ],
    { cwd: app, stdout: 'ignore', stderr: 'pipe', env: { ...process.env, npm_config_cache: join(work, 'npm-cache') } },
  );
  if (r.exitCode !== 0) throw new Error(`npm install failed: ${r.stderr.toString()}`);
  return join(app, 'node_modules', '.bin', 'lspq');
}

const go = join(work, 'go-shapes');
cpSync(join(REPO, 'test', 'fixtures', 'go-shapes'), go, { recursive: true });
// The release's own binary: the same build as the packages (another build's command would replace the daemon).
const binary = join(
  REPO,
  'dist',
  'release',
  `lspq-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`,
);
const sides = {
  binary,
  'npm bin': install('native', []),
  'Node launcher': install('shim', ['--ignore-scripts']),
};

const rows: (string | number)[][] = [];
for (const [what, args] of [
  ['--version', ['--version']],
  ['warm def', ['def', 'main.go:7:TotalArea']],
] as const) {
  // Warm: the daemon and gopls are up before anything is timed.
  await timeCommand([binary, ...args], go);
  const times = await interleaved(
    Object.values(sides).map((bin) => async () => (await timeCommand([bin, ...args], go, benchEnv)).ms),
  );
  const base = median(times[0]!);
  Object.keys(sides).forEach((name, i) => {
    const m = median(times[i]!);
    rows.push([what, name, fmt(m), `${(m / base).toFixed(2)}x`]);
  });
}
console.log(table(['call', 'lspq run as', 'median ms', 'vs the binary'], rows));
await timeCommand([binary, 'daemon', 'stop'], go);
