/**
 * A miss ends in ready targets: every candidate offered (in the message and
 * in JSON) is fed back and must resolve. Real servers: gopls, TypeScript 7
 * and typescript-language-server (which names methods with no container),
 * pyright.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
});

const at = (fixture: string) => ({ cwd: join(FIXTURES, fixture) });
const words = (candidate: string) => (candidate.startsWith('--symbol ') ? candidate.split(' ') : [candidate]);

/** The miss: exit 2, the one line, and the candidates in JSON; then each candidate fed back answers. */
async function offers(fixture: string, args: string[], stderr: string, extra: string[] = []): Promise<string[]> {
  const r = await lspq.run([...args, ...extra], at(fixture));
  expect({ exit: r.exit, stderr: r.stderr }).toEqual({ exit: 2, stderr });
  const json = await lspq.json<{ error: { candidates?: string[] } }>([...args, ...extra], at(fixture));
  const candidates = json.error.candidates ?? [];
  for (const c of candidates) expect(stderr).toContain(c);
  for (const c of candidates) {
    const fed = await lspq.run(['def', ...words(c), ...extra], at(fixture));
    expect({ candidate: c, exit: fed.exit === 0 || fed.exit === 1 }).toEqual({ candidate: c, exit: true });
  }
  return candidates;
}

describe('FILE:LINE:NAME not on the line, FILE:LINE:COL on no name', () => {
  test('a misspelt name: the names of the lines around it, closest first', async () => {
    const c = await offers(
      'go-shapes',
      ['def', 'main.go:7:TotlArea'],
      `lspq: 'TotlArea' is not on line 7 of main.go: 名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm")); nearest: main.go:7:TotalArea, main.go:6:Square, main.go:7:shapes, main.go:6:shapes, main.go:6:Shape\n`,
    );
    expect(c[0]).toBe('main.go:7:TotalArea');
  });

  test('a column on whitespace: the nearest names by place; words in strings are not offered', async () => {
    await offers(
      'go-shapes',
      ['def', 'main.go:7:1'],
      'lspq: column 1 of line 7 of main.go is on no name; nearest: main.go:7:名前, main.go:7:fmt, main.go:7:Println, main.go:7:TotalArea, main.go:7:shapes\n',
    );
  });
});

describe('FILE:LINE: the one name the line holds, or the names to pick from', () => {
  test.each([
    ['go-shapes', ['def', 'geometry.go:10'], 'geometry.go:10:2: sum := 0.0\n'],
    [
      'go-shapes',
      ['refs', 'shape.go:10'],
      'geometry.go:17:37: func TotalArea(shapes []Shape, unit Unit) string {  (in TotalArea)\nsquare.go:5:7: Unit Unit  (in Square.Unit)\n',
    ],
    ['ts-shapes', ['def', 'src/main.ts:1'], 'src/circle.ts:3:14: export class Circle implements Shape {\n'],
    ['ts-shapes', ['hover', 'src/shape.ts:3'], '```typescript\n(property) Shape.name: string\n```\n'],
    ['py-shapes', ['def', 'shapes/circle.py:12'], 'shapes/circle.py:12:9: def area(self) -> float:\n'],
  ])('%s: %p takes the one name', async (fixture, args, stdout) => {
    expect(await lspq.run(args, at(fixture))).toEqual({ stdout, stderr: '', exit: 0 });
  });

  test('the target found is the name, in JSON as FILE:LINE:NAME would give it', async () => {
    const line = await lspq.json<{ target: unknown }>(['def', 'geometry.go:10'], at('go-shapes'));
    const named = await lspq.json<{ target: unknown }>(['def', 'geometry.go:10:sum'], at('go-shapes'));
    expect(line).toEqual(named);
    expect(line.target).toEqual({ path: 'geometry.go', line: 10, column: 2, symbol: 'sum' });
  });

  test('several names: exit 2 listing each as FILE:LINE:NAME, every one resolving', async () => {
    const c = await offers(
      'go-shapes',
      ['hover', 'geometry.go:9'],
      'lspq: line 9 of geometry.go holds 4 names; pick one: geometry.go:9:sumAreas, geometry.go:9:shapes, geometry.go:9:Shape, geometry.go:9:float64\n',
    );
    expect(c).toHaveLength(4);
    const json = await lspq.json<{ error: { code: string } }>(['def', 'geometry.go:9'], at('go-shapes'));
    expect(json.error.code).toBe('ambiguous_target');
  });

  test('no name in code (an import path, an empty line): the names near it', async () => {
    await offers(
      'go-shapes',
      ['def', 'geometry.go:3'],
      'lspq: line 3 of geometry.go holds no name in code: import "fmt"; nearest: geometry.go:5:areaOf, geometry.go:1:main, geometry.go:5:shape, geometry.go:5:Shape, geometry.go:5:float64\n',
    );
    await offers(
      'ts-shapes',
      ['hover', 'src/shape.ts:6'],
      'lspq: line 6 of src/shape.ts holds no name in code: (empty line); nearest: src/shape.ts:7:Unit, src/shape.ts:4:area, src/shape.ts:4:number\n',
    );
  });
});

describe('--symbol', () => {
  test('no match: the nearest names, each a --symbol that resolves (Go, Python)', async () => {
    expect(
      await offers(
        'go-shapes',
        ['def', '--symbol', 'TotlArea'],
        "lspq: no symbol named 'TotlArea' in the workspace; nearest: --symbol TotalArea\n",
      ),
    ).toEqual(['--symbol TotalArea']);
    const py = await offers(
      'py-shapes',
      ['def', '--symbol', 'total_are'],
      "lspq: no symbol named 'total_are' in the workspace; nearest: --symbol total_area\n",
    );
    expect(py).toEqual(['--symbol total_area']);
  });

  test('several matches: a qualifier for each that picks it alone, never the ambiguous name again', async () => {
    expect(
      await offers(
        'go-shapes',
        ['def', '--symbol', 'Area'],
        "lspq: 'Area' names 3 symbols; pick one: --symbol Shape.Area (method, shape.go:5:2), --symbol Circle.Area (method, circle.go:9:17), --symbol Square.Area (method, square.go:8:17)\n",
      ),
    ).toEqual(['--symbol Shape.Area', '--symbol Circle.Area', '--symbol Square.Area']);
  });

  test('typescript-language-server: the container from the file’s own symbols, so Circle.area resolves and hints qualify', async () => {
    const server = ['--server', 'typescript-language-server'];
    expect(await lspq.run(['def', '--symbol', 'Circle.area', ...server], at('ts-shapes'))).toEqual({
      exit: 0,
      stdout: 'src/circle.ts:6:3: area(): number {\n',
      stderr: '',
    });
    const c = await offers(
      'ts-shapes',
      ['def', '--symbol', 'area'],
      "lspq: 'area' names 3 symbols; pick one: --symbol Shape.area (method, src/shape.ts:4:3), --symbol Circle.area (method, src/circle.ts:6:3), --symbol Square.area (method, src/square.ts:7:3)\n",
      server,
    );
    expect(c).toEqual(['--symbol Shape.area', '--symbol Circle.area', '--symbol Square.area']);
  });

  test('TypeScript 7 reports containers itself: the same qualified name resolves', async () => {
    expect(await lspq.run(['def', '--symbol', 'Circle.area'], at('ts-shapes'))).toEqual({
      exit: 0,
      stdout: 'src/circle.ts:6:3: area(): number {\n',
      stderr: '',
    });
  });
});
