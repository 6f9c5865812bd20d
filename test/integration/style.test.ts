/**
 * Edits in the file's own style: the same small project indented with
 * tabs, two spaces and four spaces, in TypeScript (both servers), Python,
 * Go and C; fmt, a code action and a rename on each change only the lines
 * they have a reason to change, in that file's indentation. The styles are
 * asked in turn of one warm daemon (tab, two, four, then tab again), so a
 * server told one file's style must be told the next one's.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const base = (() => {
  mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
  return mkdtempSync(join(REPO, 'test', '.scratch', 'style-'));
})();
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const STYLES = { tab: '\t', two: '  ', four: '    ' } as const;
type Style = keyof typeof STYLES;

function write(dir: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function project(lang: string, style: Style): string {
  const I = STYLES[style];
  const dir = join(base, `${lang}-${style}`);
  if (lang === 'ts')
    return write(dir, {
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
      'lib.ts': 'export const alpha = 1;\nexport const beta = 2;\nexport const gamma = 3;\n',
      'main.ts': `import {\n${I}alpha,\n${I}beta,\n${I}gamma,\n} from "./lib";\n\nexport function run(x: number): number {\n${I}if (x > 0) {\n${I}${I}return alpha + gamma;\n${I}}\n${I}return 0;\n}\n`,
    });
  if (lang === 'py')
    return write(dir, {
      'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
      'main.py': `import os\nimport sys\n\n\ndef run(x):\n${I}if x > 0:\n${I}${I}return sys.argv\n${I}return x\n\n\nprint(run(1))\n`,
    });
  if (lang === 'go')
    return write(dir, {
      'go.mod': 'module example.com/m\n\ngo 1.22\n',
      'main.go': `package main\n\nimport (\n${I}"fmt"\n${I}"os"\n)\n\nfunc run(x int) int {\n${I}if x > 0 {\n${I}${I}return x * 2\n${I}}\n${I}return 0\n}\n\nfunc main() {\n${I}fmt.Println(run(1))\n}\n`,
    });
  return write(dir, {
    'compile_flags.txt': '-std=c11\n',
    'main.c': `#include <stdio.h>\n\nint run(int x) {\n${I}if (x > 0) {\n${I}${I}return x * 2\n${I}}\n${I}return 0;\n}\n\nint main(void) {\n${I}printf("%d\\n", run(1));\n${I}return 0;\n}\n`,
  });
}

/** The diff's removed and added lines, in order. */
async function changed(dir: string, args: string[]): Promise<string[]> {
  const r = await lspq.run(args, { cwd: dir });
  expect(r.exit).toBe(0);
  return r.stdout.split('\n').filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));
}

const ORDER: Style[] = ['tab', 'two', 'four', 'tab'];

describe.each(['typescript', 'typescript-language-server'])('TypeScript, %s', (server) => {
  test.each(ORDER)('%s: fmt, removeUnusedImports and a rename keep the indentation', async (style) => {
    const I = STYLES[style];
    const dir = project('ts', style);
    const on = ['--server', server];
    expect(await changed(dir, ['fmt', 'main.ts', ...on])).toEqual([]);
    const action = ['actions', 'main.ts:1', '--kind', 'source.removeUnusedImports', '--apply', '1', '--dry-run', ...on];
    // Each server words the import its own way; the indentation is the file's.
    const removed =
      server === 'typescript'
        ? [`-${I}beta,`, `-${I}gamma,`, `+${I}gamma`]
        : [`-${I}alpha,`, `-${I}beta,`, `-${I}gamma,`, `+${I}alpha, gamma`];
    expect(await changed(dir, action)).toEqual(removed);
    expect(await changed(dir, action)).toEqual(removed);
    expect(await changed(dir, ['rename', 'main.ts:7:run', 'go', '--dry-run', ...on])).toEqual([
      '-export function run(x: number): number {',
      '+export function go(x: number): number {',
    ]);
  });
});

describe('Python (ruff, pyright)', () => {
  test.each(ORDER)('%s: removing an unused import and a rename touch only their lines', async (style) => {
    const dir = project('py', style);
    const action = ['actions', 'main.py:1', '--server', 'ruff', '--apply', '1', '--dry-run'];
    expect(await changed(dir, action)).toEqual(['-import os']);
    expect(await changed(dir, ['rename', 'main.py:5:run', 'go', '--server', 'pyright', '--dry-run'])).toEqual([
      '-def run(x):',
      '+def go(x):',
      '-print(run(1))',
      '+print(go(1))',
    ]);
  });

  test('fmt on a file in ruff style changes nothing', async () => {
    expect(await changed(project('py', 'four'), ['fmt', 'main.py'])).toEqual([]);
  });
});

describe('Go (gopls; gofmt indents with tabs)', () => {
  test('fmt, organize imports and a rename', async () => {
    const dir = project('go', 'tab');
    expect(await changed(dir, ['fmt', 'main.go'])).toEqual([]);
    const action = ['actions', 'main.go:5', '--kind', 'source.organizeImports', '--apply', '1', '--dry-run'];
    expect(await changed(dir, action)).toEqual(['-\t"os"']);
    expect(await changed(dir, ['rename', 'main.go:8:run', 'twice', '--dry-run'])).toEqual([
      '-func run(x int) int {',
      '+func twice(x int) int {',
      '-\tfmt.Println(run(1))',
      '+\tfmt.Println(twice(1))',
    ]);
  });
});

describe('C (clangd)', () => {
  test.each(ORDER)('%s: a fix-it and a rename touch only their lines', async (style) => {
    const I = STYLES[style];
    const dir = project('c', style);
    expect(await changed(dir, ['actions', 'main.c:6', '--apply', '1', '--dry-run'])).toEqual([
      `-${I}${I}return x * 2`,
      `+${I}${I}return x * 2;`,
    ]);
    expect(await changed(dir, ['rename', 'main.c:3:run', 'twice', '--dry-run'])).toEqual([
      '-int run(int x) {',
      '+int twice(int x) {',
      `-${I}printf("%d\\n", run(1));`,
      `+${I}printf("%d\\n", twice(1));`,
    ]);
  });
});
