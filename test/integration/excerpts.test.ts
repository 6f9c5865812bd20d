/**
 * The code with the answer, against real servers: -B/-A/-C context in
 * grep's form and as JSON, and --body from the location's own document
 * symbols (the standard library included), following an edit and its revert.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, FIXTURES, Lspq, prepareCFixture } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
prepareCFixture();
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');
const ok = (stdout: string) => ({ exit: 0, stdout, stderr: '' });
const inFixture = (name: string) => ({ cwd: join(FIXTURES, name) });

describe('-B/-A/-C: the code around each place', () => {
  test('def -C 2 (Go): two lines each side, the location line as it always is; asked again, the same', async () => {
    const expected = ok(
      lines(
        'geometry.go-15-}',
        'geometry.go-16-',
        'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {',
        'geometry.go-18-\treturn fmt.Sprintf("%v %s²", sumAreas(shapes), unit)',
        'geometry.go-19-}',
      ),
    );
    expect(await lspq.run(['def', 'main.go:7:TotalArea', '-C', '2'], inFixture('go-shapes'))).toEqual(expected);
    expect(await lspq.run(['def', 'main.go:7:TotalArea', '-C2'], inFixture('go-shapes'))).toEqual(expected);
  });

  test('refs -A 1 (Go): one group per window, -- between them', async () => {
    expect(await lspq.run(['refs', 'shape.go:4:Shape', '-A', '1'], inFixture('go-shapes'))).toEqual(
      ok(
        lines(
          'geometry.go:5:19: func areaOf(shape Shape) float64 {  (in areaOf)',
          'geometry.go-6-\treturn shape.Area()',
          '--',
          'geometry.go:9:24: func sumAreas(shapes []Shape) float64 {  (in sumAreas)',
          'geometry.go-10-\tsum := 0.0',
          '--',
          'geometry.go:17:25: func TotalArea(shapes []Shape, unit Unit) string {  (in TotalArea)',
          'geometry.go-18-\treturn fmt.Sprintf("%v %s²", sumAreas(shapes), unit)',
          '--',
          'main.go:6:14: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}  (in main)',
          'main.go-7-\t名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm"))',
        ),
      ),
    );
  });

  test('diag -C 1 (TypeScript): windows that touch merge into one group', async () => {
    const r = await lspq.run(['diag', 'src/broken.ts', '-C', '1'], inFixture('ts-diag'));
    expect(r.stdout).toBe(
      lines(
        "src/broken.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
        'src/broken.ts-2-',
        'src/broken.ts-3-export function size(text: string): number {',
        "src/broken.ts:4:24: error: Cannot find name 'missing'. [ts 2304]",
        'src/broken.ts-5-}',
      ),
    );
    expect(r.exit).toBe(1);
  });

  test('symbols -w and calls take context too', async () => {
    const symbols = await lspq.run(['symbols', '-w', 'totalArea', '-B', '1'], inFixture('ts-shapes'));
    expect(symbols).toEqual(ok(lines('src/geometry.ts-12-', 'src/geometry.ts:13:17: function totalArea')));
    const calls = await lspq.run(['calls', 'geometry.c:3:area_of', '-A', '1'], inFixture('c-shapes'));
    expect(calls).toEqual(
      ok(lines('geometry.c:3:15: function area_of', '--', 'geometry.c:8:15:   ← function sum_areas', 'geometry.c-9-{')),
    );
  });

  test('JSON: each location carries the whole window, its own line included', async () => {
    const r = await lspq.json<{ locations: { line: number; context: unknown }[] }>(
      ['def', 'main.go:7:TotalArea', '-C', '1'],
      inFixture('go-shapes'),
    );
    expect(r.locations[0]!.context).toEqual({
      line: 16,
      lines: [
        '',
        'func TotalArea(shapes []Shape, unit Unit) string {',
        '\treturn fmt.Sprintf("%v %s²", sumAreas(shapes), unit)',
      ],
    });
  });

  test.each([
    [['def', 'main.go:7:TotalArea', '-C', '51'], "lspq: -C takes a number of lines from 0 to 50, not '51'\n"],
    [['def', 'main.go:7:TotalArea', '-A', 'x'], "lspq: -A takes a number of lines from 0 to 50, not 'x'\n"],
    [['def', 'main.go:7:TotalArea', '--max-lines', '3'], 'lspq: --max-lines cuts a --body; add --body\n'],
  ])('%j is bad input', async (args, stderr) => {
    expect(await lspq.run(args, inFixture('go-shapes'))).toEqual({ exit: 2, stdout: '', stderr });
  });
});

describe('--body: the whole declaration', () => {
  test.each([
    [
      'Go',
      'go-shapes',
      ['def', 'main.go:7:TotalArea'],
      lines(
        'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {',
        'geometry.go-18-\treturn fmt.Sprintf("%v %s²", sumAreas(shapes), unit)',
        'geometry.go-19-}',
        '--',
      ),
    ],
    [
      'TypeScript',
      'ts-shapes',
      ['def', 'src/main.ts:7:totalArea'],
      lines(
        'src/geometry.ts:13:17: export function totalArea(shapes: Shape[], unit: Unit): string {',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's own source text
        'src/geometry.ts-14-  return `${sumAreas(shapes)} ${unit}²`;',
        'src/geometry.ts-15-}',
        '--',
      ),
    ],
    [
      'Python',
      'py-shapes',
      ['def', '--symbol', 'geometry.total_area'],
      lines(
        'shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:',
        'shapes/geometry.py-16-    return f"{sum_areas(shapes)} {unit}²"',
        '--',
      ),
    ],
    [
      'C',
      'c-shapes',
      ['def', 'main.c:7:total_area'],
      lines(
        'geometry.c:16:8: double total_area(const struct shape *shapes, int count)',
        'geometry.c-17-{',
        'geometry.c-18-\treturn sum_areas(shapes, count);',
        'geometry.c-19-}',
        '--',
      ),
    ],
  ])('%s', async (_lang, fixture, args, stdout) => {
    expect(await lspq.run([...args, '--body'], inFixture(fixture))).toEqual(ok(stdout));
  });

  test('outside the project (Go standard library), cut at --max-lines with how many lines were left out', async () => {
    // The standard library's symbols are searched cold: minutes on loaded cores, not the default's seconds.
    const r = await lspq.run(
      ['def', '--symbol', 'fmt.Sprintf', '--body', '--max-lines', '2', '--timeout', '300'],
      inFixture('go-shapes'),
    );
    expect(r.exit).toBe(0);
    expect(r.stdout.replace(/^\/.*\/src\/fmt\//gm, 'GOROOT/src/fmt/')).toBe(
      lines(
        'GOROOT/src/fmt/print.go:237:6: func Sprintf(format string, a ...any) string {',
        'GOROOT/src/fmt/print.go-238-\tp := newPrinter()',
        '--',
      ),
    );
    expect(r.stderr).toMatch(
      /^lspq: warning: 5 more lines of the body at \/.*\/fmt\/print\.go:237 not shown; raise --max-lines to see them\n$/,
    );
    const json = await lspq.json<{ locations: { body: unknown }[] }>(
      ['def', '--symbol', 'fmt.Sprintf', '--body', '--max-lines', '2'],
      inFixture('go-shapes'),
    );
    expect(json.locations[0]!.body).toEqual({
      line: 237,
      endLine: 243,
      text: 'func Sprintf(format string, a ...any) string {\n\tp := newPrinter()',
      truncated: true,
    });
  }, 400_000);

  test('a body follows an edit that grows it and the revert that shrinks it back (warm, TypeScript and Go)', async () => {
    for (const [fixture, file, args, grown] of [
      ['go-shapes', 'geometry.go', ['def', 'main.go:7:TotalArea', '--body', '--json'], '\t// one more line\n'],
      ['ts-shapes', 'src/geometry.ts', ['def', 'src/main.ts:7:totalArea', '--body', '--json'], '  // one more line\n'],
    ] as const) {
      const dir = copyFixture(fixture);
      scratch.push(dir);
      const body = async () =>
        (await lspq.json<{ locations: { body: { endLine: number; text: string } }[] }>([...args], { cwd: dir }))
          .locations[0]!.body;
      const before = await body();
      expect(await body()).toEqual(before);
      const path = join(dir, file);
      const original = readFileSync(path, 'utf8');
      const line = before.text.split('\n')[0]!;
      writeFileSync(path, original.replace(`${line}\n`, `${line}\n${grown}`));
      const after = await body();
      expect(after.endLine).toBe(before.endLine + 1);
      expect(after.text).toBe(before.text.replace(`${line}\n`, `${line}\n${grown}`));
      writeFileSync(path, original);
      expect(await body()).toEqual(before);
    }
  });

  test('a place with no symbol around it has body null', async () => {
    const r = await lspq.json<{ locations: { body: unknown }[] }>(
      ['def', 'main.go:7:shapes', '--body'],
      inFixture('go-shapes'),
    );
    expect(r.locations.map((l) => l.body)).toEqual([null]);
  });
});
