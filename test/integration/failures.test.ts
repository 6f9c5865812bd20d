/**
 * What lspq cannot answer completely it says, never exit 0 with less: a
 * word in a comment or a string is no identifier (exit 2 with the nearest
 * names, for def and refs alike); a server without workspace symbols is
 * exit 3, not "no symbol named"; diag --all skips a file it cannot hand a
 * server with one line naming it and reports the rest, asking each file of
 * the same servers diag FILE does. And the small promises beside them:
 * every command takes the common flags, servers --for gives pyright's
 * version, CI formats name paths from the repository's top.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, FIXTURES, git, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const inFixture = (name: string) => ({ cwd: join(FIXTURES, name) });

describe('a target that is no identifier: exit 2 with the nearest names, the same for every command', () => {
  const COMMENT =
    "lspq: 'Shape' is only in a comment on line 3 of shape.go, not in code; nearest: shape.go:4:Shape, shape.go:1:main, shape.go:5:Area, shape.go:5:float64\n";
  test.each(['def', 'refs', 'hover'])('%s on a word of a // comment (gopls)', async (command) => {
    expect(await lspq.run([command, 'shape.go:3:Shape'], inFixture('go-shapes'))).toEqual({
      exit: 2,
      stdout: '',
      stderr: COMMENT,
    });
  });

  test('a word of a string, and a column on punctuation', async () => {
    const string = await lspq.run(['def', 'main.go:7:cm'], inFixture('go-shapes'));
    expect([string.exit, string.stderr.split(';')[0]]).toEqual([
      2,
      "lspq: 'cm' is only in a string on line 7 of main.go, not in code",
    ]);
    // The `:` of `:=`, in code points.
    const line = '\t名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm"))';
    const column = Array.from(line.slice(0, line.indexOf(':='))).length + 1;
    const paren = await lspq.run(['refs', `main.go:7:${column}`], inFixture('go-shapes'));
    expect([paren.exit, paren.stderr.split(';')[0]]).toEqual([
      2,
      `lspq: column ${column} of line 7 of main.go is on no name`,
    ]);
  });

  test('JSON: the error with its candidates', async () => {
    const r = await lspq.json<{ error: { code: string; candidates: string[] } }>(
      ['refs', 'shape.go:3:Shape'],
      inFixture('go-shapes'),
    );
    expect(r.error.code).toBe('name_not_on_line');
    expect(r.error.candidates[0]).toBe('shape.go:4:Shape');
  });
});

test('--symbol with a server that has no workspace symbols (pylsp): exit 3 naming servers --for', async () => {
  const r = await lspq.run(['def', '--symbol', 'total_area', '--server', 'pylsp'], inFixture('py-shapes'));
  expect(r).toEqual({
    exit: 3,
    stdout: '',
    stderr:
      "lspq: pylsp cannot search the workspace's symbols, which --symbol needs; name another server with --server, or give a FILE:LINE:NAME target ('lspq servers --for FILE' lists what each server can answer)\n",
  });
});

describe('diag --all: every file asked of the servers diag FILE asks, files that cannot be handed a server skipped', () => {
  test('a binary file and one too large are named on a line each; the rest is reported', async () => {
    const dir = copyFixture('ts-diag');
    scratch.push(dir);
    writeFileSync(join(dir, 'src', 'blob.ts'), Buffer.from([0x00, 0x01, 0x02, 0x61]));
    writeFileSync(join(dir, 'src', 'big.ts'), `export const big = ${JSON.stringify('x'.repeat(30_000))};\n`);
    const small = new Lspq();
    try {
      const r = await small.run(['diag', '--all'], { cwd: dir, env: { LSPQ_MAX_FILE_MB: '0.02' } });
      expect(r.exit).toBe(1);
      expect(r.stdout).toBe(
        [
          "src/broken.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
          "src/broken.ts:4:24: error: Cannot find name 'missing'. [ts 2304]",
          '',
        ].join('\n'),
      );
      expect(r.stderr).toBe(
        [
          'lspq: warning: skipped src/big.ts: 30 KB, past the 21 KB lspq hands a server (LSPQ_MAX_FILE_MB)',
          'lspq: warning: skipped src/blob.ts: not a text file',
          'lspq: 2 errors in 2 files; 2 files skipped',
          '',
        ].join('\n'),
      );
      const json = await small.json<{ skipped: unknown }>(['diag', '--all'], {
        cwd: dir,
        env: { LSPQ_MAX_FILE_MB: '0.02' },
      });
      expect(json.skipped).toEqual([
        { path: 'src/big.ts', reason: '30 KB, past the 21 KB lspq hands a server (LSPQ_MAX_FILE_MB)' },
        { path: 'src/blob.ts', reason: 'not a text file' },
      ]);
    } finally {
      await small.stop();
    }
  });

  test('ruff beside pyright, as diag FILE asks them', async () => {
    const dir = copyFixture('py-diag');
    scratch.push(dir);
    writeFileSync(join(dir, 'lint_me.py'), 'import os\n\n\ndef f() -> int:\n    return 1\n');
    const one = await lspq.run(['diag', 'lint_me.py'], { cwd: dir });
    const all = await lspq.run(['diag', '--all'], { cwd: dir });
    const unused = 'lint_me.py:1:8: warning: `os` imported but unused help: Remove unused import: `os` [Ruff F401]';
    expect(one.stdout).toContain(unused);
    expect(all.stdout).toContain(unused);
  });
});

describe('the small promises', () => {
  test('every command takes the common flags: schema --json', async () => {
    const r = await lspq.run(['schema', '--json']);
    expect(r.exit).toBe(0);
    expect(JSON.parse(r.stdout).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  test('servers --for gives pyright its version (its binary prints none: its own initialize answer does)', async () => {
    const r = await lspq.json<{ servers: { id: string; version?: string }[] }>(
      ['servers', '--for', 'main.py', '--server', 'pyright'],
      inFixture('py-shapes'),
    );
    expect(r.servers.find((s) => s.id === 'pyright')?.version).toMatch(/^pyright \d+\.\d+\.\d+$/);
  });

  test('--format github and sarif from a subfolder name paths from the repository top', async () => {
    const dir = copyFixture('ts-diag');
    scratch.push(dir);
    git(dir, 'init', '-q');
    mkdirSync(join(dir, 'src', 'deeper'), { recursive: true });
    const cwd = join(dir, 'src', 'deeper');
    const github = await lspq.run(['diag', '../broken.ts', '--format', 'github'], { cwd });
    expect(github.stdout.split('\n')[0]).toStartWith('::error file=src/broken.ts,line=1,col=14,');
    const sarif = JSON.parse((await lspq.run(['diag', '../broken.ts', '--format', 'sarif'], { cwd })).stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('src/broken.ts');
  });
});
