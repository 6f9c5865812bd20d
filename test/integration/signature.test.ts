/**
 * lspq signature on real servers (TypeScript 7, typescript-language-server,
 * gopls, pyright, basedpyright, rust-analyzer, clangd): at a callee's name
 * the position moves inside its parentheses; at a place between the
 * arguments (`<|>`) the parameter there is the active one, with its own
 * documentation; overloads each on a line, the active one marked. Asked
 * twice, as JSON against the schema, in a batch beside the same question
 * alone; a place in no call is exit 1; a server without signature help
 * (ruff) is exit 3 naming it.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';
import { checkAnswer } from '../helpers/schema';

const lspq = new Lspq();
const base = scratchDir('signature');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text.replaceAll('$DIR', dir));
  }
  return dir;
}

const TS = {
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
  'src/lib.ts': [
    '/**',
    ' * Scales a number.',
    ' * @param x the number',
    ' * @param by how many times',
    ' */',
    'export function scale(x: number, by: number): number {',
    '  return x * by;',
    '}',
    '',
    'export function pick(a: string): string;',
    'export function pick(a: number, b: number): number;',
    'export function pick(a: string | number, b?: number): string | number {',
    '  return b ?? a;',
    '}',
    '',
  ].join('\n'),
  'src/use.ts': "import { pick, scale } from './lib';\n\nexport const a = scale(2, 3);\nexport const b = pick(1, 2);\n",
};

interface Case {
  server: string;
  files: Record<string, string>;
  /** The call's file, its line, and the callee's name there. */
  file: string;
  line: number;
  callee: string;
  /** Lines at the callee's name (the first parameter active), and between the arguments (the second). */
  first: string[];
  second: string[];
}

const tsLines = (column: number, which: 1 | 2) => [
  `src/use.ts:3:${column}: scale(x: number, by: number): number`,
  which === 1 ? '  parameter 1 of 2: x: number - the number' : '  parameter 2 of 2: by: number - how many times',
  '  Scales a number.',
];
const twoInts = (at: [string, string], label: string, params: [string, string], doc: string) => ({
  first: [`${at[0]}: ${label}`, `  parameter 1 of 2: ${params[0]}`, `  ${doc}`],
  second: [`${at[1]}: ${label}`, `  parameter 2 of 2: ${params[1]}`, `  ${doc}`],
});
const PYTHON = {
  'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
  'lib.py': 'def scale(x: int, by: int) -> int:\n    """Scales x by by."""\n    return x * by\n',
  'use.py': 'from lib import scale\n\na = scale(2, 3)\n',
};
const python = (server: string): Case => ({
  server,
  files: PYTHON,
  file: 'use.py',
  line: 3,
  callee: 'scale',
  ...twoInts(['use.py:3:5', 'use.py:3:14'], '(x: int, by: int) -> int', ['x: int', 'by: int'], 'Scales x by by.'),
});

const CASES: Case[] = [
  ...['typescript', 'typescript-language-server'].map(
    (server): Case => ({
      server,
      files: TS,
      file: 'src/use.ts',
      line: 3,
      callee: 'scale',
      first: tsLines(18, 1),
      second: tsLines(27, 2),
    }),
  ),
  {
    server: 'gopls',
    files: {
      'go.mod': 'module example.com/sig\n\ngo 1.22\n',
      'lib.go': 'package sig\n\n// Scale scales x by by.\nfunc Scale(x, by int) int {\n\treturn x * by\n}\n',
      'use.go': 'package sig\n\nvar A = Scale(2, 3)\n',
    },
    file: 'use.go',
    line: 3,
    callee: 'Scale',
    ...twoInts(['use.go:3:9', 'use.go:3:18'], 'Scale(x int, by int) int', ['x int', 'by int'], 'Scale scales x by by.'),
  },
  python('pyright'),
  python('basedpyright'),
  {
    server: 'rust-analyzer',
    files: {
      'Cargo.toml': '[package]\nname = "sig"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        '/// Scales x by by.\npub fn scale(x: i32, by: i32) -> i32 {\n    x * by\n}\n\npub fn use_it() -> i32 {\n    scale(2, 3)\n}\n',
    },
    file: 'src/lib.rs',
    line: 7,
    callee: 'scale',
    ...twoInts(
      ['src/lib.rs:7:5', 'src/lib.rs:7:14'],
      'fn scale(x: i32, by: i32) -> i32',
      ['x: i32', 'by: i32'],
      'Scales x by by.',
    ),
  },
  {
    server: 'clangd',
    files: {
      'main.c':
        '/* Scales x by by. */\nint scale(int x, int by) { return x * by; }\n\nint use_it(void) { return scale(2, 3); }\n',
      'compile_commands.json': '[{"directory":"$DIR","file":"main.c","arguments":["cc","-c","main.c"]}]\n',
    },
    file: 'main.c',
    line: 4,
    callee: 'scale',
    ...twoInts(['main.c:4:27', 'main.c:4:36'], 'scale(int x, int by) -> int', ['int x', 'int by'], 'Scales x by by.'),
  },
];

describe.each(CASES)('$server', (c) => {
  const dir = project(c.server, c.files);
  const run = (args: string[]) => lspq.run(['signature', ...args, '--server', c.server], { cwd: dir });
  const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

  test("at the callee's name: the first parameter active; asked twice, the same", async () => {
    for (let i = 0; i < 2; i++) {
      const r = await run([`${c.file}:${c.line}:${c.callee}`]);
      expect([lines(r.stdout), r.stderr, r.exit]).toEqual([c.first, '', 0]);
    }
  });

  test('between the arguments: the second parameter active, its own documentation; as JSON, the schema', async () => {
    const r = await run([`${c.file}:${c.line}:${c.callee}(2, <|>3)`]);
    expect([lines(r.stdout), r.exit]).toEqual([c.second, 0]);
    const json = await lspq.json<{ active: unknown; signatures: { parameters: unknown[] }[]; server: string }>(
      ['signature', `${c.file}:${c.line}:${c.callee}(2, <|>3)`, '--server', c.server, '--json'],
      { cwd: dir },
    );
    checkAnswer('signature', json);
    expect([json.server, json.active, json.signatures.length, json.signatures[0]?.parameters.length]).toEqual([
      c.server,
      { signature: 0, parameter: 1 },
      1,
      2,
    ]);
  });
});

describe('TypeScript 7: overloads, a place in no call, a batch', () => {
  const dir = project('ts-more', TS);

  test('overloads each on a line, the active one (by the arguments given) marked, its parameter under it', async () => {
    const r = await lspq.run(['signature', 'src/use.ts:4:pick', '--server', 'typescript'], { cwd: dir });
    expect(r).toEqual({
      exit: 0,
      stderr: '',
      stdout: [
        'src/use.ts:4:18: pick(a: string): string',
        'src/use.ts:4:18: pick(a: number, b: number): number  (active)',
        '  parameter 1 of 2: a: number',
        '',
      ].join('\n'),
    });
  });

  test("a place in no call: exit 1 saying where to ask; a line past the file's end: exit 2", async () => {
    const r = await lspq.run(['signature', 'src/use.ts:3:1', '--server', 'typescript'], { cwd: dir });
    expect(r).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        "lspq: no call at export (src/use.ts:3:1) (a signature is asked inside a call's parentheses, or at the callee's name)\n",
    });
    const past = await lspq.run(['signature', 'src/use.ts:40:1'], { cwd: dir });
    expect(past.exit).toBe(2);
  });

  test('in a batch, the same answer as alone', async () => {
    const alone = await lspq.json(['signature', 'src/use.ts:3:scale', '--server', 'typescript', '--json'], {
      cwd: dir,
    });
    const r = await lspq.run(['batch'], {
      cwd: dir,
      stdin: `${JSON.stringify(['signature', 'src/use.ts:3:scale', '--server', 'typescript'])}\n`,
    });
    expect(r.exit).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ exit: 0, answer: alone });
  });
});

test('a server without signature help (ruff): exit 3 naming it', async () => {
  const dir = project('ruff', PYTHON);
  const r = await lspq.run(['signature', 'use.py:3:scale', '--server', 'ruff'], { cwd: dir });
  expect([r.exit, r.stdout]).toEqual([3, '']);
  expect(r.stderr).toStartWith(`lspq: ruff cannot answer signature help for ${join(dir, 'use.py')};`);
});
