/**
 * npm run release, as a user meets its output: five binaries and a
 * SHA256SUMS that sha256sum checks; the `lspq` npm package and this
 * platform's @lspq package packed with npm and installed into an empty
 * folder, whose node_modules/.bin/lspq answers a real question; the
 * linux-arm64 binary run under qemu-user, a --no-daemon question included;
 * the macOS and Windows binaries built (Mach-O, PE) but not run here.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capture, FIXTURES, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const work = mkdtempSync(join(tmpdir(), 'lspq-release-'));
const release = join(REPO, 'dist', 'release');
const go = join(work, 'go-shapes');

beforeAll(async () => {
  const built = await capture(
    [process.execPath, join(REPO, 'scripts', 'release.ts')],
    REPO,
    lspq.env({ PATH: process.env.PATH }),
  );
  expect(built.exit).toBe(0);
  cpSync(join(FIXTURES, 'go-shapes'), go, { recursive: true });
}, 600_000);

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(work, { recursive: true, force: true });
});

const version = () => {
  const { version: v } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
  return v;
};

test('five binaries and a SHA256SUMS that verifies', async () => {
  expect(readdirSync(release).sort()).toEqual([
    'SHA256SUMS',
    'lspq-darwin-arm64',
    'lspq-darwin-x64',
    'lspq-linux-arm64',
    'lspq-linux-x64',
    'lspq-windows-x64.exe',
  ]);
  const check = await capture(['sha256sum', '-c', 'SHA256SUMS'], release, { PATH: process.env.PATH ?? '' });
  expect([check.exit, check.stdout.trim().split('\n').length]).toEqual([0, 5]);
  const magic = (name: string) => readFileSync(join(release, name)).subarray(0, 4).toString('hex');
  expect(magic('lspq-darwin-arm64')).toBe('cffaedfe'); // Mach-O, 64-bit
  expect(magic('lspq-darwin-x64')).toBe('cffaedfe');
  expect(magic('lspq-windows-x64.exe').slice(0, 4)).toBe('4d5a'); // MZ
  expect(magic('lspq-linux-arm64')).toBe('7f454c46'); // ELF
});

test('npm install of the packed lspq and linux-x64 packages gives a node_modules/.bin/lspq that answers', async () => {
  const packed = join(work, 'packed');
  mkdirSync(packed);
  const env = { PATH: process.env.PATH ?? '', HOME: work, npm_config_cache: join(work, 'npm-cache') };
  for (const pkg of ['lspq', 'linux-x64'])
    expect((await capture(['npm', 'pack', join(REPO, 'dist', 'npm', pkg)], packed, env)).exit).toBe(0);
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name": "app", "private": true}\n');
  const v = version();
  const install = await capture(
    [
      'npm',
      'install',
      '--no-audit',
      '--no-fund',
      join(packed, `lspq-${v}.tgz`),
      join(packed, `lspq-linux-x64-${v}.tgz`),
    ],
    app,
    env,
  );
  expect(install.exit).toBe(0);
  const bin = join(app, 'node_modules', '.bin', 'lspq');
  // Its install step made the bin the platform's binary itself: no Node in between. That binary was written
  // again whole first (its pages as npm wrote them cost each start); one file, the release's bytes, nothing left.
  expect(readFileSync(realpathSync(bin)).subarray(0, 4).toString('hex')).toBe('7f454c46');
  const platform = join(app, 'node_modules', '@lspq', 'linux-x64', 'bin');
  const [binStat, platformStat] = [statSync(realpathSync(bin)), statSync(join(platform, 'lspq'))];
  expect([binStat.ino, binStat.nlink, (binStat.mode & 0o777).toString(8)]).toEqual([platformStat.ino, 2, '755']);
  expect(readFileSync(join(platform, 'lspq')).equals(readFileSync(join(release, 'lspq-linux-x64')))).toBe(true);
  expect([readdirSync(platform), readdirSync(join(app, 'node_modules', 'lspq', 'bin'))]).toEqual([['lspq'], ['lspq']]);
  const dist = await capture([join(REPO, 'dist', 'lspq'), '--version'], REPO, env);
  expect((await capture([bin, '--version'], app, env)).stdout).toBe(dist.stdout);
  const r = await capture([bin, 'def', 'main.go:7:TotalArea'], go, lspq.env());
  expect(r).toEqual({
    exit: 0,
    stdout: 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
    stderr: '',
  });
  const bad = await capture([bin, 'def', 'main.go:99:TotalArea'], go, lspq.env());
  expect([bad.exit, bad.stderr]).toEqual([2, 'lspq: line 99 is outside main.go, which has 8 lines\n']);
});

test('npm run release packs each package; installed with --ignore-scripts, the Node launcher answers', async () => {
  const v = version();
  const npm = join(REPO, 'dist', 'npm');
  expect(
    readdirSync(npm)
      .filter((f) => f.endsWith('.tgz'))
      .sort(),
  ).toEqual(
    ['lspq', 'lspq-darwin-arm64', 'lspq-darwin-x64', 'lspq-linux-arm64', 'lspq-linux-x64', 'lspq-win32-x64'].map(
      (n) => `${n}-${v}.tgz`,
    ),
  );
  const app = join(work, 'app-no-scripts');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name": "app", "private": true}\n');
  const env = { PATH: process.env.PATH ?? '', HOME: work, npm_config_cache: join(work, 'npm-cache') };
  const install = await capture(
    [
      'npm',
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      join(npm, `lspq-${v}.tgz`),
      join(npm, `lspq-linux-x64-${v}.tgz`),
    ],
    app,
    env,
  );
  expect(install.exit).toBe(0);
  const bin = join(app, 'node_modules', '.bin', 'lspq');
  expect(readFileSync(realpathSync(bin), 'utf8')).toStartWith('#!/usr/bin/env node\n');
  const r = await capture([bin, 'def', 'main.go:7:TotalArea'], go, lspq.env());
  expect([r.exit, r.stdout]).toEqual([0, 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n']);
});

test('the linux-arm64 binary under qemu-user: --version and a --no-daemon question', async () => {
  const qemu = ['qemu-aarch64', '-L', '/usr/aarch64-linux-gnu', join(release, 'lspq-linux-arm64')];
  const dist = await capture([join(REPO, 'dist', 'lspq'), '--version'], REPO, lspq.env());
  expect((await capture([...qemu, '--version'], REPO, lspq.env())).stdout).toBe(dist.stdout);
  const r = await capture([...qemu, 'def', 'main.go:7:TotalArea', '--no-daemon'], go, lspq.env());
  expect(r).toEqual({
    exit: 0,
    stdout: 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
    stderr: '',
  });
});
