/**
 * TOML with taplo (taplo-cli built with its language server): a Cargo
 * manifest of the fixtures and a pyproject.toml, as projects have them.
 * diag cold and again, an error added on disk and taken back, symbols,
 * fmt as a diff and written, two questions at once, and the same answers
 * in a repository not trusted (taplo reads TOML as data).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, git, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const untrusted = new Lspq({ trusting: false });
const root = mkdtempSync(join(tmpdir(), 'lspq-toml-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  expect(await untrusted.stop()).toEqual([]);
  rmSync(root, { recursive: true, force: true });
});

const PYPROJECT =
  '[project]\nname="shapes"\nversion = "0.1.0"\ndependencies = [ "six>=1.16",\n  "attrs"]\n\n[tool.ruff]\nline-length=100\n';
copyFileSync(join(FIXTURES, 'rust-shapes', 'Cargo.toml'), join(root, 'Cargo.toml'));
writeFileSync(join(root, 'pyproject.toml'), PYPROJECT);
git(root, 'init', '-q');
const CARGO = readFileSync(join(root, 'Cargo.toml'), 'utf8');

const ask = (args: string[]) => lspq.run([...args, '--server', 'taplo'], { cwd: root });
const SYMBOLS = [
  'Cargo.toml:1:1: object package',
  'Cargo.toml:2:8:   string name',
  'Cargo.toml:3:11:   string version',
  'Cargo.toml:4:11:   string edition',
  'Cargo.toml:6:1: object dependencies',
  '',
].join('\n');
const FORMATTED =
  '[project]\nname = "shapes"\nversion = "0.1.0"\ndependencies = ["six>=1.16", "attrs"]\n\n[tool.ruff]\nline-length = 100\n';

describe('taplo', () => {
  test('cold: diag of two manifests, clean; asked again, the same', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await ask(['diag', 'Cargo.toml', 'pyproject.toml']);
      expect([r.stdout, r.stderr, r.exit]).toEqual(['', 'lspq: no problems in 2 files\n', 0]);
    }
  });

  test('symbols: the tables and their keys', async () => {
    const r = await ask(['symbols', 'Cargo.toml']);
    expect([r.stdout, r.exit]).toEqual([SYMBOLS, 0]);
  });

  test('a value missing on disk, then put back', async () => {
    writeFileSync(join(root, 'Cargo.toml'), `${CARGO}serde = \n`);
    const broken = await ask(['diag', 'Cargo.toml']);
    expect([broken.stdout, broken.exit]).toEqual(['Cargo.toml:7:9: error: expected value [Even Better TOML]\n', 1]);
    writeFileSync(join(root, 'Cargo.toml'), CARGO);
    const mended = await ask(['diag', 'Cargo.toml']);
    expect([mended.stdout, mended.exit]).toEqual(['', 0]);
  });

  test('fmt: the diff, then written, then nothing left to change', async () => {
    const diff = await ask(['fmt', 'pyproject.toml']);
    expect([diff.stdout, diff.exit]).toEqual([
      [
        'diff --git a/pyproject.toml b/pyproject.toml',
        '--- a/pyproject.toml',
        '+++ b/pyproject.toml',
        '@@ -1,8 +1,7 @@',
        ' [project]',
        '-name="shapes"',
        '+name = "shapes"',
        ' version = "0.1.0"',
        '-dependencies = [ "six>=1.16",',
        '-  "attrs"]',
        '+dependencies = ["six>=1.16", "attrs"]',
        ' ',
        ' [tool.ruff]',
        '-line-length=100',
        '+line-length = 100',
        '',
      ].join('\n'),
      0,
    ]);
    const written = await ask(['fmt', '--write', 'pyproject.toml']);
    expect(written.exit).toBe(0);
    expect(readFileSync(join(root, 'pyproject.toml'), 'utf8')).toBe(FORMATTED);
    const again = await ask(['fmt', 'pyproject.toml']);
    expect([again.stdout, again.exit]).toEqual(['', 0]);
    writeFileSync(join(root, 'pyproject.toml'), PYPROJECT);
  });

  test('diag and symbols at once', async () => {
    const [d, s] = await Promise.all([ask(['diag', 'Cargo.toml']), ask(['symbols', 'Cargo.toml'])]);
    expect([d.stdout, d.exit, s.stdout, s.exit]).toEqual(['', 0, SYMBOLS, 0]);
  });

  test('not trusted: the same answers (it reads TOML as data)', async () => {
    const r = await untrusted.run(['symbols', 'Cargo.toml', '--server', 'taplo'], { cwd: root });
    expect([r.stdout, r.exit]).toEqual([SYMBOLS, 0]);
  });
});
