/**
 * Exit 1, nothing found: never silent. Each question that found nothing
 * says so in one stderr line naming what was asked, for a person and with
 * --json (stdout stays the JSON document); a batch answers it with exit 1
 * and the document. Real servers: gopls and TypeScript 7.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq, lspqArgv } from '../helpers/lspq';

const lspq = new Lspq();
const go = join(FIXTURES, 'go-shapes');
const ts = join(FIXTURES, 'ts-shapes');

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
});

describe('one stderr line, exit 1, nothing on stdout', () => {
  test.each([
    [go, ['refs', 'main.go:5:main'], 'no references to main (main.go:5:6)'],
    [go, ['refs', 'main.go:5:6'], 'no references to main (main.go:5:6)'],
    [ts, ['def', 'src/circle.ts:6:number'], 'no definition of number (src/circle.ts:6:11)'],
    [ts, ['typedef', 'src/circle.ts:6:area'], 'no type definition of area (src/circle.ts:6:3)'],
    [ts, ['impls', 'src/shape.ts:7:Unit'], 'no implementations of Unit (src/shape.ts:7:13)'],
    [ts, ['hover', 'src/circle.ts:6:number'], 'no hover information for number (src/circle.ts:6:11)'],
    [go, ['symbols', 'main.go', '--kind', 'class'], 'no class symbols in main.go'],
    [go, ['symbols', 'main.go', '--kind', 'class,enum'], 'no class or enum symbols in main.go'],
    [go, ['symbols', '-w', 'Zzyzx'], "no symbols in the workspace match 'Zzyzx'"],
    [
      go,
      ['calls', 'main.go:5:main', '--to', 'Circle.Name', '--depth', '2'],
      'no call chain from main to Name within --depth 2, past which calls remain to follow; raise --depth',
    ],
    [go, ['actions', 'main.go:1', '--kind', 'quickfix'], 'no code actions of kind quickfix at main.go:1'],
  ] as const)('%p %p', async (cwd, args, said) => {
    const r = await lspq.run([...args], { cwd });
    expect(r).toEqual({ stdout: '', stderr: `lspq: ${said}\n`, exit: 1 });
  });

  test('calls prints the function asked, then says it has no callers or callees', async () => {
    const callers = await lspq.run(['calls', 'main.go:5:main'], { cwd: go });
    expect(callers).toEqual({
      stdout: 'main.go:5:6: function main\n',
      stderr: 'lspq: no callers of main (main.go:5:6)\n',
      exit: 1,
    });
    const callees = await lspq.run(['calls', 'circle.go:13:Name', '--out'], { cwd: go });
    expect(callees).toEqual({
      stdout: 'circle.go:13:17: method Name\n',
      stderr: 'lspq: no callees of Name (circle.go:13:17)\n',
      exit: 1,
    });
  });
});

describe('with --json: stdout is the answer, stderr the line', () => {
  test('refs', async () => {
    const r = await lspq.run(['refs', 'main.go:5:main', '--json'], { cwd: go });
    expect({ answer: JSON.parse(r.stdout), stderr: r.stderr, exit: r.exit }).toEqual({
      answer: {
        target: { path: 'main.go', line: 5, column: 6, symbol: 'main' },
        server: 'gopls',
        root: go,
        locations: [],
        total: 0,
        truncated: false,
        source: 'server',
      },
      stderr: 'lspq: no references to main (main.go:5:6)\n',
      exit: 1,
    });
  });

  test('symbols -w with --kind', async () => {
    const r = await lspq.run(['symbols', '-w', 'Zzyzx', '--kind', 'function', '--json'], { cwd: go });
    expect(JSON.parse(r.stdout)).toMatchObject({ query: 'Zzyzx', symbols: [], total: 0 });
    expect([r.stderr, r.exit]).toEqual(["lspq: no function symbols in the workspace match 'Zzyzx'\n", 1]);
  });
});

test('a batch answers it as exit 1 with the document, the line left to the document', async () => {
  const proc = Bun.spawn([...lspqArgv(), 'batch'], {
    cwd: go,
    env: lspq.env(),
    stdin: new TextEncoder().encode('["refs", "main.go:5:main"]\n["refs", "geometry.go:9:sumAreas"]\n'),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const answers = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { exit: number; answer: { total: number } });
  expect(answers.map((a) => [a.exit, a.answer.total])).toEqual([
    [1, 0],
    [0, 1],
  ]);
  expect([err, exit]).toEqual(['', 1]);
});
