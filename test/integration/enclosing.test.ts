/**
 * refs and calls name the symbol each place sits in (`in`), so "who uses
 * this" needs no second question: from each file's own document symbols,
 * with gopls, TypeScript 7, pyright, rust-analyzer and clangd; asked twice
 * (the second from the symbols cached for the file's version), and after
 * an edit that renames the function around a reference and its revert.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Lspq, prepareCFixture, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const go = scratchDir('enclosing');
cpSync(join(FIXTURES, 'go-shapes'), go, { recursive: true });
prepareCFixture();
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(go, { recursive: true, force: true });
});

const at = (fixture: string) => ({ cwd: join(FIXTURES, fixture) });

describe('refs: each place with the symbol it sits in, in JSON and at the end of the line', () => {
  test.each([
    [
      'gopls',
      go,
      ['refs', 'circle.go:6:Radius'],
      [
        'circle.go:10:21: return math.Pi * c.Radius * c.Radius  (in Circle.Area)',
        'circle.go:10:32: return math.Pi * c.Radius * c.Radius  (in Circle.Area)',
        'main.go:6:27: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}  (in main)',
      ],
    ],
    [
      'TypeScript 7',
      at('ts-shapes').cwd,
      ['refs', 'src/shape.ts:2:Shape'],
      [
        "src/circle.ts:1:15: import type { Shape } from './shape';",
        'src/circle.ts:3:32: export class Circle implements Shape {  (in Circle)',
        "src/geometry.ts:1:15: import type { Shape, Unit } from './shape';",
        'src/geometry.ts:3:31: export function areaOf(shape: Shape): number {  (in areaOf)',
        'src/geometry.ts:7:34: export function sumAreas(shapes: Shape[]): number {  (in sumAreas)',
        'src/geometry.ts:13:35: export function totalArea(shapes: Shape[], unit: Unit): string {  (in totalArea)',
        "src/main.ts:4:15: import type { Shape } from './shape';",
        'src/main.ts:6:15: const shapes: Shape[] = [new Circle(1), new Square(2)];  (in shapes)',
        "src/square.ts:1:15: import type { Shape, Unit } from './shape';",
        'src/square.ts:3:32: export class Square implements Shape {  (in Square)',
      ],
    ],
    [
      'pyright (locals passed over)',
      at('py-shapes').cwd,
      ['refs', 'shapes/circle.py:10:radius'],
      [
        'shapes/circle.py:13:31: return math.pi * self.radius * self.radius  (in Circle.area)',
        'shapes/circle.py:13:45: return math.pi * self.radius * self.radius  (in Circle.area)',
      ],
    ],
    [
      'rust-analyzer (an impl is its type)',
      at('rust-shapes').cwd,
      ['refs', 'src/shape.rs:3:area'],
      [
        'src/circle.rs:8:8: fn area(&self) -> f64 {  (in Circle)',
        'src/geometry.rs:4:11: shape.area()  (in area_of)',
        'src/square.rs:9:8: fn area(&self) -> f64 {  (in Square)',
      ],
    ],
    [
      'clangd',
      at('c-shapes').cwd,
      ['refs', 'geometry.c:3:area_of'],
      ['geometry.c:12:10: sum += area_of(&shapes[i]);  (in sum_areas)'],
    ],
  ])('%s', async (_server, cwd, args, lines) => {
    for (let i = 0; i < 2; i++)
      expect(await lspq.run(args, { cwd })).toEqual({ stdout: `${lines.join('\n')}\n`, stderr: '', exit: 0 });
  });

  test('JSON: in {name, kind} on each location, none where nothing is around it', async () => {
    const r = await lspq.json<{ locations: { path: string; line: number; in?: { name: string; kind: string } }[] }>(
      ['refs', 'src/shape.ts:2:Shape'],
      at('ts-shapes'),
    );
    expect(r.locations.slice(0, 4).map((l) => [`${l.path}:${l.line}`, l.in])).toEqual([
      ['src/circle.ts:1', undefined],
      ['src/circle.ts:3', { name: 'Circle', kind: 'class' }],
      ['src/geometry.ts:1', undefined],
      ['src/geometry.ts:3', { name: 'areaOf', kind: 'function' }],
    ]);
  });

  test('a declaration is in what contains it: --include-declaration of a field is in its struct', async () => {
    const r = await lspq.run(['refs', 'circle.go:6:Radius', '--include-declaration'], { cwd: go });
    expect(r.stdout.split('\n')[0]).toBe('circle.go:6:2: Radius float64  (in Circle)');
  });

  test('after an edit the name is the new one; after its revert, the old', async () => {
    const file = join(go, 'geometry.go');
    const before = readFileSync(file, 'utf8');
    const ask = async () => (await lspq.run(['refs', 'geometry.go:5:areaOf'], { cwd: go })).stdout;
    expect(await ask()).toBe('geometry.go:12:10: sum += areaOf(shape)  (in sumAreas)\n');
    writeFileSync(
      file,
      before.replace('func sumAreas(', 'func sumAllAreas(').replace('sumAreas(shapes)', 'sumAllAreas(shapes)'),
    );
    expect(await ask()).toBe('geometry.go:12:10: sum += areaOf(shape)  (in sumAllAreas)\n');
    writeFileSync(file, before);
    expect(await ask()).toBe('geometry.go:12:10: sum += areaOf(shape)  (in sumAreas)\n');
  });

  test('the whole line, (in ...) and all, fed back is a target', async () => {
    const line = (await lspq.run(['refs', 'circle.go:6:Radius'], { cwd: go })).stdout.split('\n')[0]!;
    expect(await lspq.run(['def', line], { cwd: go })).toEqual({
      stdout: 'circle.go:6:2: Radius float64\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('calls: each caller or callee with the symbol it is declared in', () => {
  test('TypeScript 7: the interface method and its caller', async () => {
    expect(await lspq.run(['calls', 'src/shape.ts:4:area'], at('ts-shapes'))).toEqual({
      stdout: 'src/shape.ts:4:3: method area  (in Shape)\nsrc/geometry.ts:3:17:   ← function areaOf\n',
      stderr: '',
      exit: 0,
    });
  });

  test('pyright: a callee in its class, in JSON too', async () => {
    const r = await lspq.json<{ item: { in?: unknown }; calls: { item: { name: string; in?: unknown } }[] }>(
      ['calls', 'shapes/geometry.py:4:area_of', '--out'],
      at('py-shapes'),
    );
    expect([r.item.in, r.calls.map((c) => [c.item.name, c.item.in])]).toEqual([
      undefined,
      [['area', { name: 'Shape', kind: 'class' }]],
    ]);
  });
});
