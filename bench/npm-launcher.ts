/**
 * What an npm-installed lspq costs a call beside the binary itself: the
 * packages `npm run release` packs (dist/npm/*.tgz) installed into three
 * empty folders: one as npm installs them (the install step makes the bin
 * the binary), one with --ignore-scripts then the install step of the
 * build before this change (BENCH_BEFORE, else where this branch left
 * main: a hard link to the binary as npm unpacked it), one with
 * --ignore-scripts alone (the
 * Node launcher stays). Each is timed side by side with the release's
 * binary (dist/release, the same build): `--version`, and a warm `def`
 * through the same daemon. Run `npm run release` first.
 *
 *   bun bench/npm-launcher.ts
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeCommit, benchEnv, fmt, interleaved, median, quantile, table, timeCommand } from './harness';
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
/** The install step of the build before, run over an install without scripts (its text from its release.ts). */
function installBefore(name: string): string {
  const bin = install(name, ['--ignore-scripts']);
  const commit = beforeCommit();
  const source = Bun.spawnSync(['git', 'show', `${commit}:scripts/release.ts`], { cwd: REPO }).stdout.toString();
  const literal = /const INSTALL = `((?:[^`\\]|\\[\s\S])*)`;/.exec(source)?.[1];
  if (!literal) throw new Error(`no install step in ${commit}'s scripts/release.ts`);
  const script = join(work, name, 'node_modules', 'lspq', 'install-before.js');
  // The template literal's own escapes (\` and \${) read as the script it is.
  writeFileSync(script, new Function(`return \`${literal}\`;`)() as string);
  const r = Bun.spawnSync(['node', script], { cwd: join(work, name, 'node_modules', 'lspq') });
  if (r.exitCode !== 0) throw new Error(`the install step of ${commit} failed: ${r.stderr.toString()}`);
  return bin;
}

const sides = {
  binary,
  'npm bin': install('native', []),
  'npm bin, the install step before': installBefore('before'),
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
    const spread = `${fmt(quantile(times[i]!, 0.1))}-${fmt(quantile(times[i]!, 0.9))}`;
    rows.push([what, name, fmt(m), spread, `${(m / base).toFixed(2)}x`]);
  });
}
console.log(table(['call', 'lspq run as', 'median ms', 'p10-p90', 'vs the binary'], rows));
await timeCommand([binary, 'daemon', 'stop'], go);
