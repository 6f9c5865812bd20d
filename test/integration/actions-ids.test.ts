/**
 * A code action is applied by what was listed: each listed action has an
 * id derived from its server, title, kind and edit, the same on every
 * call; `--apply ID` applies that one, and `--apply N` only while the N-th
 * is still the one the same flags listed there (refused, exit 1, with the
 * list offered now, when the offer changed). An action that changes
 * nothing is exit 1 saying so. TypeScript 7 on TanStack's query-core,
 * pyright and ruff on a file whose offer changes.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';
import { TANSTACK } from '../helpers/workspaces';

const lspq = new Lspq();
const core = scratchDir('actions-query-core');
cpSync(join(TANSTACK, 'query-core', 'src'), join(core, 'src'), { recursive: true, dereference: true });
cpSync(join(TANSTACK, 'query-core', 'package.json'), join(core, 'package.json'));
const py = scratchDir('actions-ids');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(core, { recursive: true, force: true });
  rmSync(py, { recursive: true, force: true });
});

describe('TypeScript 7 on query-core: source actions of a file with no import', () => {
  const at = { cwd: core };
  const args = ['actions', 'src/subscribable.ts:1', '--kind', 'source'];
  const LIST = [
    '1  jnfxck  source.organizeImports  Organize Imports',
    '2  wfvqsz  source.removeUnusedImports  Remove Unused Imports',
    '3  tvhncp  source.sortImports  Sort Imports',
    '',
  ].join('\n');
  const text = readFileSync(join(core, 'src/subscribable.ts'), 'utf8');

  test('listed with their ids, the same on every call', async () => {
    for (let i = 0; i < 3; i++) expect(await lspq.run(args, at)).toEqual({ stdout: LIST, stderr: '', exit: 0 });
    const json = await lspq.json<{ actions: { index: number; id: string; title: string }[]; total: number }>(args, at);
    expect([json.actions.map((a) => [a.index, a.id, a.title]), json.total]).toEqual([
      [
        [1, 'jnfxck', 'Organize Imports'],
        [2, 'wfvqsz', 'Remove Unused Imports'],
        [3, 'tvhncp', 'Sort Imports'],
      ],
      3,
    ]);
  });

  test('an action that changes nothing: exit 1 saying so, by number or id, dry run or not; nothing written', async () => {
    const nothing = (how: string) =>
      `lspq: code action 1 (jnfxck 'Organize Imports') at src/subscribable.ts:1 changes nothing; nothing ${how}\n`;
    for (const apply of ['1', 'jnfxck'])
      expect(await lspq.run([...args, '--apply', apply, '--dry-run'], at)).toEqual({
        stdout: '',
        stderr: nothing('to apply'),
        exit: 1,
      });
    expect(await lspq.run([...args, '--apply', 'jnfxck'], at)).toEqual({
      stdout: '',
      stderr: nothing('written'),
      exit: 1,
    });
    const json = await lspq.run([...args, '--apply', '1', '--dry-run', '--json'], at);
    expect([JSON.parse(json.stdout).applied, json.exit]).toEqual([
      { index: 1, id: 'jnfxck', title: 'Organize Imports', server: 'typescript', files: [], written: false, urls: [] },
      1,
    ]);
    expect(readFileSync(join(core, 'src/subscribable.ts'), 'utf8')).toBe(text);
  });

  test('--limit cuts the list and says so; an id not offered, or no id at all, is refused', async () => {
    expect(await lspq.run([...args, '--limit', '1'], at)).toEqual({
      stdout: '1  jnfxck  source.organizeImports  Organize Imports\n1 of 3 shown: --limit 0 for all\n',
      stderr: 'lspq: warning: 1 of 3 shown: --limit 0 for all\n',
      exit: 0,
    });
    expect(await lspq.run([...args, '--apply', 'bcdfgh', '--dry-run'], at)).toEqual({
      stdout: '',
      stderr:
        "lspq: no code action bcdfgh is offered at src/subscribable.ts:1; nothing applied; offered now: 1 jnfxck 'Organize Imports', 2 wfvqsz 'Remove Unused Imports', 3 tvhncp 'Sort Imports'; apply one by its id (--apply jnfxck)\n",
      exit: 1,
    });
    expect(await lspq.run([...args, '--apply', 'first'], at)).toEqual({
      stdout: '',
      stderr: "lspq: --apply takes N or an action's id from the list (the letters after its number), not 'first'\n",
      exit: 2,
    });
  });
});

describe('pyright and ruff: an offer that changes between the list and --apply N', () => {
  const at = { cwd: py };
  writeFileSync(join(py, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
  const UNUSED = 'import os\nimport sys\n\nprint(sys.argv)\n';
  const UNSORTED = 'import sys\nimport os\n\nprint(sys.argv)\n';
  writeFileSync(join(py, 'main.py'), UNUSED);

  test('refused with exit 1 and the list offered now; N then names that list; --apply ID applies the one listed', async () => {
    expect(await lspq.run(['actions', 'main.py:1'], at)).toEqual({
      stdout: [
        '1  prvghf  quickfix  Ruff (F401): Remove unused import: `os` (ruff, preferred)',
        '2  ddpmgv  quickfix  Ruff (F401): Disable for this line (ruff)',
        '3  fdsprk  source.fixAll.ruff  Ruff: Fix all auto-fixable problems (ruff)',
        '4  ghxsbt  source.organizeImports.ruff  Ruff: Organize imports (ruff)',
        '',
      ].join('\n'),
      stderr: '',
      exit: 0,
    });
    // Another program reorders the imports: line 1's problem is another, and so is action 2.
    writeFileSync(join(py, 'main.py'), UNSORTED);
    const offered =
      "offered now: 1 mvczsc 'Ruff (I001): Organize imports', 2 hfpvtd 'Ruff (I001): Disable for this line', 3 fdsprk 'Ruff: Fix all auto-fixable problems', 4 ghxsbt 'Ruff: Organize imports'; apply one by its id (--apply mvczsc)";
    const refused = await lspq.run(['actions', 'main.py:1', '--apply', '2'], at);
    expect(refused).toEqual({
      stdout: '',
      stderr: `lspq: code action 2 at main.py:1 is now hfpvtd 'Ruff (I001): Disable for this line', not ddpmgv 'Ruff (F401): Disable for this line' as listed; nothing applied; ${offered}\n`,
      exit: 1,
    });
    expect(readFileSync(join(py, 'main.py'), 'utf8')).toBe(UNSORTED);
    const json = await lspq.run(['actions', 'main.py:1', '--apply', 'bcdfgh', '--json'], at);
    expect([JSON.parse(json.stdout).error, json.exit]).toEqual([
      {
        code: 'action_not_offered',
        message: `no code action bcdfgh is offered at main.py:1; nothing applied; ${offered}`,
        candidates: ['mvczsc', 'hfpvtd', 'fdsprk', 'ghxsbt'],
      },
      1,
    ]);
    // The refusal listed what is offered now: N is taken from that list.
    expect(await lspq.run(['actions', 'main.py:1', '--apply', '2', '--dry-run'], at)).toMatchObject({
      stderr: 'lspq: would apply 2: Ruff (I001): Disable for this line\n',
      exit: 0,
    });
    // The id of what was listed, whatever its number now.
    expect(await lspq.run(['actions', 'main.py:1', '--apply', 'ghxsbt'], at)).toEqual({
      stdout: 'main.py: 1 edit\n',
      stderr: 'lspq: applied 4: Ruff: Organize imports\n',
      exit: 0,
    });
    expect(readFileSync(join(py, 'main.py'), 'utf8')).toBe(UNUSED);
  });
});
