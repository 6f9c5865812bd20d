/**
 * A text pattern as a target, `FILE:LINE:TEXT<|>TEXT`: the place of the
 * marker where the text stands on the line, for a name written twice on a
 * line; the same answer as the FILE:LINE:COL it finds, with gopls and
 * TypeScript 7. Misses are exit 2 with targets that resolve.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
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
