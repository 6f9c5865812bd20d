/**
 * actions asks every server of the file and merges their actions, as diag
 * merges diagnostics: on an unused import pyright offers nothing and ruff
 * offers the fix, so the list is ruff's, each action naming its server,
 * numbered on across servers; --apply takes the number from that list.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
const dir = mkdtempSync(join(REPO, 'test', '.scratch', 'merged-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

const TEXT = 'import os\nimport sys\n\nprint(sys.argv)\n';
writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
writeFileSync(join(dir, 'main.py'), TEXT);

const LIST = [
  '1  prvghf  quickfix  Ruff (F401): Remove unused import: `os` (ruff, preferred)',
  '2  ddpmgv  quickfix  Ruff (F401): Disable for this line (ruff)',
  '3  fdsprk  source.fixAll.ruff  Ruff: Fix all auto-fixable problems (ruff)',
  '4  ghxsbt  source.organizeImports.ruff  Ruff: Organize imports (ruff)',
  '',
].join('\n');

test("pyright and ruff are both asked: ruff's fix is offered, named, cold and asked again", async () => {
  for (let i = 0; i < 2; i++) {
    expect(await lspq.run(['actions', 'main.py:1:os'], { cwd: dir })).toEqual({ exit: 0, stdout: LIST, stderr: '' });
  }
  const json = await lspq.json<{ servers: { server: string }[]; actions: { index: number; server: string }[] }>(
    ['actions', 'main.py:1:os'],
    { cwd: dir },
  );
  expect(json.servers.map((s) => s.server)).toEqual(['pyright', 'ruff']);
  expect(json.actions.map((a) => [a.index, a.server])).toEqual([
    [1, 'ruff'],
    [2, 'ruff'],
    [3, 'ruff'],
    [4, 'ruff'],
  ]);
});

test('--server pyright asks pyright alone, which has nothing there', async () => {
  const r = await lspq.run(['actions', 'main.py:1:os', '--server', 'pyright'], { cwd: dir });
  expect(r).toEqual({ exit: 1, stdout: '', stderr: 'lspq: no code actions at main.py:1:8\n' });
});

test("--apply-preferred applies ruff's fix through ruff, then the list is empty of it", async () => {
  const dry = await lspq.run(['actions', 'main.py:1:os', '--apply-preferred', '--dry-run'], { cwd: dir });
  expect(dry.exit).toBe(0);
  expect(dry.stdout.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-import os']);
  expect(readFileSync(join(dir, 'main.py'), 'utf8')).toBe(TEXT);
  const r = await lspq.run(['actions', 'main.py:1:os', '--apply', '1'], { cwd: dir });
  expect(r).toEqual({
    exit: 0,
    stdout: 'main.py: 1 edit\n',
    stderr: 'lspq: applied 1: Ruff (F401): Remove unused import: `os`\n',
  });
  expect(readFileSync(join(dir, 'main.py'), 'utf8')).toBe('import sys\n\nprint(sys.argv)\n');
});
