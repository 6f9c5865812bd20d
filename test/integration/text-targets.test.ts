/**
 * A text pattern as a target, `FILE:LINE:TEXT<|>TEXT`: the place of the
 * marker where the text stands on the line, for a name written twice on a
 * line; the same answer as the FILE:LINE:COL it finds, with gopls and
 * TypeScript 7. Misses are exit 2 with targets that resolve.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
const colons = mkdtempSync(join(REPO, 'test', '.scratch', 'colons-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(colons, { recursive: true, force: true });
});

const go = { cwd: join(FIXTURES, 'go-shapes') };
const ts = { cwd: join(FIXTURES, 'ts-shapes') };

describe('the marker picks one of a name written twice', () => {
  test('gopls: the second Radius of line 10, as FILE:LINE:COL gives it', async () => {
    const pattern = await lspq.json<{ target: unknown; locations: unknown }>(
      ['def', 'circle.go:10:Radius * c.<|>Radius'],
      go,
    );
    const column = await lspq.json<{ target: unknown; locations: unknown }>(['def', 'circle.go:10:32'], go);
    expect(pattern).toEqual(column);
    expect(pattern.target).toEqual({ path: 'circle.go', line: 10, column: 32, symbol: 'Radius' });
    expect(await lspq.run(['hover', 'circle.go:10:Radius * c.<|>Radius'], go)).toEqual(
      await lspq.run(['hover', 'circle.go:10:32'], go),
    );
  });

  test('--nth K takes the K-th place the text stands; past the last is exit 2', async () => {
    const second = await lspq.json<{ target: unknown }>(['def', 'circle.go:10:c.<|>Radius', '--nth', '2'], go);
    expect(second.target).toEqual({ path: 'circle.go', line: 10, column: 32, symbol: 'Radius' });
    const first = await lspq.json<{ target: unknown }>(['def', 'circle.go:10:c.<|>Radius'], go);
    expect(first.target).toEqual({ path: 'circle.go', line: 10, column: 21, symbol: 'Radius' });
    expect(await lspq.run(['def', 'circle.go:10:c.<|>Radius', '--nth', '3'], go)).toEqual({
      stdout: '',
      stderr: "lspq: line 10 of circle.go has 2 place(s) where 'c.<|>Radius' stands, not 3; lower --nth\n",
      exit: 2,
    });
  });

  test('TypeScript 7: refs from the second this.radius, each place in Circle.area', async () => {
    expect(await lspq.run(['refs', 'src/circle.ts:7:radius * this.<|>radius'], ts)).toEqual({
      stdout: [
        'src/circle.ts:7:27: return Math.PI * this.radius * this.radius;  (in Circle.area)',
        'src/circle.ts:7:41: return Math.PI * this.radius * this.radius;  (in Circle.area)',
        '',
      ].join('\n'),
      stderr: '',
      exit: 0,
    });
  });

  test('a run of spaces matches the tab and spaces of the line; the marker may stand at the end', async () => {
    const spaced = await lspq.json<{ target: unknown }>(['hover', 'circle.go:10:return    <|>math.Pi'], go);
    expect(spaced.target).toEqual({ path: 'circle.go', line: 10, column: 9, symbol: 'math' });
    const after = await lspq.json<{ target: unknown }>(['hover', 'circle.go:10:math.Pi<|>'], go);
    expect(after.target).toEqual({ path: 'circle.go', line: 10, column: 16, symbol: 'Pi' });
  });
});

describe('misses: exit 2, one line, targets that resolve', () => {
  test('text not on the line: the line, and the names near the one beside the marker', async () => {
    const r = await lspq.run(['def', 'circle.go:10:d.<|>Radius'], go);
    expect(r).toEqual({
      stdout: '',
      stderr:
        "lspq: 'd.<|>Radius' is not on line 10 of circle.go: return math.Pi * c.Radius * c.Radius; nearest: circle.go:6:Radius, circle.go:10:math, circle.go:10:Pi, circle.go:9:Area, circle.go:9:Circle\n",
      exit: 2,
    });
    const json = await lspq.json<{ error: { candidates: string[] } }>(['def', 'circle.go:10:d.<|>Radius'], go);
    for (const c of json.error.candidates) expect((await lspq.run(['def', c], go)).exit).toBe(0);
  });

  test('a marker in a comment is no name, as a column there is not', async () => {
    const r = await lspq.run(['def', 'shape.go:3:is <|>anything'], go);
    expect([r.stderr, r.exit]).toEqual([
      'lspq: column 13 of line 3 of shape.go is in a comment, not on code; nearest: shape.go:4:Shape, shape.go:1:main, shape.go:5:float64, shape.go:5:Area\n',
      2,
    ]);
  });

  test('the marker alone, or twice: usage, before any server is asked', async () => {
    expect((await lspq.run(['def', 'circle.go:10:<|>'], go)).stderr).toBe(
      "lspq: 'circle.go:10:<|>' has only the marker: write the text around the place, e.g. src/app.ts:12:render(<|>view)\n",
    );
    expect((await lspq.run(['def', 'circle.go:10:c.<|>R<|>'], go)).stderr).toBe(
      "lspq: 'circle.go:10:c.<|>R<|>' has the marker <|> more than once: write it once, where the place is\n",
    );
  });
});

const FORMS =
  "a target is FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or 'FILE:LINE:TEXT<|>TEXT', lines and columns counted from 1, or --symbol NAME";
const LINE_FORMS = 'a line target is FILE:LINE or FILE:START-END, lines counted from 1';

describe('a line or column that is no place: exit 2, one line naming it (and the forms where it is written wrong)', () => {
  test.each([
    ['main.go:x:1', `the line in 'main.go:x:1' is 'x', not a number; ${FORMS}`],
    ['main.go:x', `the line in 'main.go:x' is 'x', not a number; ${FORMS}`],
    ['main.go:1.5:1', `the line in 'main.go:1.5:1' is '1.5', not a number; ${FORMS}`],
    ['main.go:0:1', `the line in 'main.go:0:1' is 0; ${FORMS}`],
    ['main.go:-1:1', `the line in 'main.go:-1:1' is -1; ${FORMS}`],
    ['main.go:0', `the line in 'main.go:0' is 0; ${FORMS}`],
    ['main.go:7:0', `the column in 'main.go:7:0' is 0; ${FORMS}`],
    ['main.go:7:-1', `the column in 'main.go:7:-1' is -1; ${FORMS}`],
    ['main.go:7:1.5', `the column in 'main.go:7:1.5' is '1.5', not a number; ${FORMS}`],
    ['main.go:99:1', 'line 99 is outside main.go, which has 8 lines'],
    ['main.go:99', 'line 99 is outside main.go, which has 8 lines'],
    ['main.go:99:TotalArea', 'line 99 is outside main.go, which has 8 lines'],
    ['main.go:99:(<|>shapes', 'line 99 is outside main.go, which has 8 lines'],
    ['main.go:7:200', 'column 200 is past the end of line 7 of main.go (55 characters)'],
  ])('def %s', async (target, said) => {
    expect(await lspq.run(['def', target], go)).toEqual({ stdout: '', stderr: `lspq: ${said}\n`, exit: 2 });
  });

  test('the same for refs, hover and calls --to, and as JSON', async () => {
    const said = `the line in 'main.go:x:1' is 'x', not a number; ${FORMS}`;
    for (const args of [
      ['refs', 'main.go:x:1'],
      ['hover', 'main.go:x:1'],
      ['calls', 'main.go:5:main', '--to', 'main.go:x:1'],
    ])
      expect(await lspq.run(args, go)).toEqual({ stdout: '', stderr: `lspq: ${said}\n`, exit: 2 });
    const json = await lspq.run(['refs', 'main.go:x:1', '--json'], go);
    expect([JSON.parse(json.stdout), json.exit]).toEqual([{ error: { code: 'usage', message: said } }, 2]);
  });

  test('line targets (actions, fmt --range): the bad line or end named; past the end, the file counted alike', async () => {
    const cases: [string[], { cwd: string }, string][] = [
      [['actions', 'main.go:x'], go, `the line in 'main.go:x' is 'x', not a number; ${LINE_FORMS}`],
      [['actions', 'main.go:3-x'], go, `the end line in 'main.go:3-x' is 'x', not a number; ${LINE_FORMS}`],
      [['actions', 'main.go:0'], go, `the line in 'main.go:0' is 0; ${LINE_FORMS}`],
      [['actions', 'main.go:99'], go, 'line 99 is outside main.go, which has 8 lines'],
      [['actions', 'main.go:5-99'], go, 'line 99 is outside main.go, which has 8 lines'],
      [['fmt', 'src/geometry.ts', '--range', '3-99'], ts, 'line 99 is outside src/geometry.ts, which has 15 lines'],
    ];
    for (const [args, where, said] of cases)
      expect(await lspq.run(args, where)).toEqual({ stdout: '', stderr: `lspq: ${said}\n`, exit: 2 });
  });
});

describe('a path that holds a colon (TypeScript 7)', () => {
  const at = { cwd: colons };
  writeFileSync(
    join(colons, 'tsconfig.json'),
    '{"compilerOptions": {"strict": true, "module": "ESNext", "moduleResolution": "Bundler", "noEmit": true}}\n',
  );
  writeFileSync(join(colons, 'lib:v2.ts'), 'export function helper(n: number): number {\n  return n * 2;\n}\n');
  writeFileSync(join(colons, 'main.ts'), "import { helper } from './lib:v2';\n\nexport const twice = helper(2);\n");

  test('is the file, in each form; a bad line after it is named', async () => {
    const refs = [
      "main.ts:1:10: import { helper } from './lib:v2';",
      'main.ts:3:22: export const twice = helper(2);  (in twice)',
      '',
    ].join('\n');
    for (const target of ['lib:v2.ts:1:helper', 'lib:v2.ts:1:17', 'lib:v2.ts:1:function <|>helper'])
      expect(await lspq.run(['refs', target], at)).toEqual({ stdout: refs, stderr: '', exit: 0 });
    expect(await lspq.run(['def', 'main.ts:3:helper'], at)).toEqual({
      stdout: 'lib:v2.ts:1:17: export function helper(n: number): number {\n',
      stderr: '',
      exit: 0,
    });
    // FILE:LINE: the one name of line 2, the parameter n.
    expect(await lspq.run(['def', 'lib:v2.ts:2'], at)).toEqual({
      stdout: 'lib:v2.ts:1:24: export function helper(n: number): number {\n',
      stderr: '',
      exit: 0,
    });
    expect(await lspq.run(['def', 'lib:v2.ts:x:1'], at)).toEqual({
      stdout: '',
      stderr: `lspq: the line in 'lib:v2.ts:x:1' is 'x', not a number; ${FORMS}\n`,
      exit: 2,
    });
  });
});
