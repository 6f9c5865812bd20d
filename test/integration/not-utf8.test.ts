/**
 * Files that are not UTF-8: Latin-1 and Windows-1252 bytes in comments and
 * strings. An edit that touches such a file changes no byte outside its
 * ranges (before, the untouched comment's E9 came back as EF BF BD), and one
 * that cannot be carried through exactly is refused, naming the file,
 * with nothing written. rename, mv, fmt and actions, on TypeScript 7.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** ASCII text with raw bytes where `\x..` escapes stand: `b('caf\xe9')` is 63 61 66 E9. */
const b = (text: string) => Buffer.from(text, 'latin1');

const LATIN1_MAIN = b(
  "// caf\xe9 au lait: a Latin-1 comment\nimport { helper } from './lib';\nexport const s = '\x93quoted\x94 na\xefve';\nexport const n = helper(2);\n",
);

function project(main: Buffer, extra: Record<string, Buffer | string> = {}): string {
  const dir = scratchDir('not-utf8');
  scratch.push(dir);
  writeFileSync(join(dir, 'package.json'), '{"name":"not-utf8","type":"module"}\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true},"include":["src"]}\n');
  const { mkdirSync } = require('node:fs') as typeof import('node:fs');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/lib.ts'), 'export function helper(n: number): number {\n  return n * 2;\n}\n');
  writeFileSync(join(dir, 'src/main.ts'), main);
  for (const [name, bytes] of Object.entries(extra)) writeFileSync(join(dir, name), bytes);
  return dir;
}

const bytesOf = (dir: string, file: string) => readFileSync(join(dir, file));

describe('an edit through a file that is not UTF-8', () => {
  test('rename: only the renamed bytes change; the Latin-1 comment and Windows-1252 string stay byte for byte', async () => {
    const dir = project(LATIN1_MAIN);
    const r = await lspq.run(['rename', 'src/lib.ts:1:helper', 'twice'], { cwd: dir });
    expect([r.exit, r.stderr]).toEqual([0, "lspq: renamed to 'twice': 3 edits in 2 files\n"]);
    expect(bytesOf(dir, 'src/main.ts')).toEqual(b(LATIN1_MAIN.toString('latin1').replaceAll('helper', 'twice')));
    // And back: the file is the original, byte for byte.
    expect((await lspq.run(['rename', 'src/lib.ts:1:twice', 'helper'], { cwd: dir })).exit).toBe(0);
    expect(bytesOf(dir, 'src/main.ts')).toEqual(LATIN1_MAIN);
  });

  test('mv: the importer’s import line changes, nothing else of it', async () => {
    const dir = project(LATIN1_MAIN);
    const r = await lspq.run(['mv', 'src/lib.ts', 'src/core/lib.ts'], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(bytesOf(dir, 'src/main.ts')).toEqual(
      b(LATIN1_MAIN.toString('latin1').replace("from './lib'", "from './core/lib'")),
    );
  });

  test('actions: an unused import removed, the rest byte for byte', async () => {
    const main = b("// na\xefve\nimport { helper } from './lib';\nexport const s = '\x93q\x94';\n");
    const dir = project(main);
    const r = await lspq.run(['actions', 'src/main.ts:2', '--kind', 'source.removeUnusedImports', '--apply', '1'], {
      cwd: dir,
    });
    expect(r.exit).toBe(0);
    expect(bytesOf(dir, 'src/main.ts')).toEqual(b("// na\xefve\nexport const s = '\x93q\x94';\n"));
  });

  test('fmt --write: whitespace fixed around the bytes, which stay', async () => {
    const messy = b("// caf\xe9\nexport const s  =  '\x93q\x94';\nexport const n=1;\n");
    const dir = project(messy);
    // The server's formatting, asked by name: lspq's own biome.json lies above the scratch project.
    const r = await lspq.run(['fmt', '--write', 'src/main.ts', '--server', 'typescript'], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(bytesOf(dir, 'src/main.ts')).toEqual(b("// caf\xe9\nexport const s = '\x93q\x94';\nexport const n = 1;\n"));
  });

  test('an edit that would replace an undecodable byte is refused, naming the file; nothing written', async () => {
    // "Convert to template string" rewrites the literal that holds the byte: lspq never decoded it, so cannot write it back.
    const main = b("export const n = 1;\nexport const s = 'caf\xe9 ' + n;\n");
    const dir = project(main);
    const r = await lspq.run(
      [
        'actions',
        'src/main.ts:2:n',
        '--server',
        'typescript-language-server',
        '--kind',
        'refactor.rewrite.string',
        '--apply',
        '1',
      ],
      { cwd: dir },
    );
    expect([r.exit, r.stderr]).toEqual([
      3,
      `lspq: ${join(dir, 'src/main.ts')} is not UTF-8 and the edit would change bytes lspq cannot carry through unchanged; nothing was written (convert the file to UTF-8, or edit it by hand)\n`,
    ]);
    expect(bytesOf(dir, 'src/main.ts')).toEqual(main);
  });
});
