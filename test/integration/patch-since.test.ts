/**
 * diag --patch reports exactly what diag --since reports once the edit is
 * committed: a handful of real edits drawn by a seed (renames and code
 * actions made by the servers themselves, a parameter added, an export
 * deleted; test/helpers/seeded-edits.ts), each checked in memory, then
 * written, committed, checked since the commit before and taken back, on
 * TypeScript 7 and gopls. bench/patch.ts runs a hundred on immer.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { copyFixture, git, Lspq, lspqArgv } from '../helpers/lspq';
import { compareEdit, GO, type Language, type Run, seededEdits, TYPESCRIPT } from '../helpers/seeded-edits';

const lspq = new Lspq();
const dirs: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function runIn(cwd: string): Run {
  return async (args, stdin) => {
    if (stdin === undefined) return lspq.run(args, { cwd });
    const proc = Bun.spawn([...lspqArgv(), ...args], {
      cwd,
      env: lspq.env(),
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    proc.stdin.write(stdin);
    await proc.stdin.end();
    const [stdout, stderr, exit] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { stdout, stderr, exit };
  };
}

describe.each<{ name: string; fixture: string; files: string[]; lang: Language }>([
  {
    name: 'TypeScript 7',
    fixture: 'ts-shapes',
    files: ['src/geometry.ts', 'src/main.ts', 'src/circle.ts'],
    lang: TYPESCRIPT,
  },
  { name: 'gopls', fixture: 'go-shapes', files: ['geometry.go', 'main.go', 'circle.go'], lang: GO },
])('$name', ({ fixture, files, lang }) => {
  test('five seeded edits: the same diagnostics in memory as once committed', async () => {
    const dir = copyFixture(fixture);
    dirs.push(dir);
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'base');
    const run = runIn(dir);
    const edits = await seededEdits(dir, files, lang, run, 7, 5);
    expect(edits.length).toBe(5);
    const compared = [];
    for (const edit of edits) compared.push(await compareEdit(dir, edit, run, (...args) => git(dir, ...args)));
    expect(
      compared
        .filter((c) => !c.same)
        .map((c) => ({ what: c.edit.what, skipped: c.skipped, patch: c.patch, since: c.since })),
    ).toEqual([]);
    // Some of them break something: the comparison is not of empty answers only.
    expect(compared.some((c) => c.patch.length > 0)).toBe(true);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 240_000);
});
