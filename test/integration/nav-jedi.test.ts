/**
 * jedi-language-server, named with --server so no other Python server can
 * answer: the navigation matrix on the py-shapes fixture (cold and warm, the
 * line with emoji and CJK text) and on a real library (six 1.17.0's
 * six.py, from the wheel the install step downloads), then after an edit
 * and after it is taken back. jedi counts columns in code points whatever
 * encoding it announces; before lspq offered it utf-32 alone, a def from
 * the non-ASCII line landed on another name.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, Lspq, REPO } from '../helpers/lspq';

const SERVER = ['--server', 'jedi-language-server'];
const lspq = new Lspq();
const made: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const shapes = join(FIXTURES, 'py-shapes');
const ask = (cwd: string, args: string[], extra: string[] = []) => lspq.run([...args, ...SERVER, ...extra], { cwd });

const TOTAL_AREA_DEF = 'shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:\n';
const TOTAL_AREA_REFS =
  'main.py:2:29: from shapes.geometry import total_area\nmain.py:7:24: 名前 = "🎉 图形"; print(名前, total_area(shapes, "cm"))\n';
const SHAPE_REFS = [
  'main.py:3:26: from shapes.shape import Shape',
  'main.py:6:14: shapes: list[Shape] = [Circle(1), Square(2)]  (in shapes)',
  'shapes/circle.py:3:26: from shapes.shape import Shape',
  'shapes/circle.py:6:14: class Circle(Shape):  (in Circle)',
  'shapes/geometry.py:1:26: from shapes.shape import Shape, Unit',
  'shapes/geometry.py:4:20: def area_of(shape: Shape) -> float:  (in area_of)',
  'shapes/geometry.py:8:28: def sum_areas(shapes: list[Shape]) -> float:  (in sum_areas)',
  'shapes/geometry.py:15:29: def total_area(shapes: list[Shape], unit: Unit) -> str:  (in total_area)',
  'shapes/square.py:1:26: from shapes.shape import Shape, Unit',
  'shapes/square.py:4:14: class Square(Shape):  (in Square)',
  '',
].join('\n');

describe('py-shapes', () => {
  const cases: [string, string[], string][] = [
    ['def across files from the line with emoji and CJK text', ['def', 'main.py:7:total_area'], TOTAL_AREA_DEF],
    ['def by code-point column', ['def', 'main.py:7:24'], TOTAL_AREA_DEF],
    [
      'refs back onto the non-ASCII line, at its code-point column',
      ['refs', 'shapes/geometry.py:15:total_area'],
      TOTAL_AREA_REFS,
    ],
    ['refs of a class across files', ['refs', 'shapes/shape.py:7:Shape'], SHAPE_REFS],
    [
      'hover',
      ['hover', 'shapes/geometry.py:8:sum_areas'],
      'def sum_areas(shapes: list[Shape]) -> float\n---\nFull name: shapes.geometry.sum_areas\n',
    ],
    [
      'symbols: a detail that only restates the name is left out',
      ['symbols', 'shapes/square.py', '--kind', 'class,method'],
      // jedi lists the names a file imports among its symbols.
      'shapes/square.py:1:26: class Shape\nshapes/square.py:4:7: class Square\nshapes/square.py:8:9:   method __init__\nshapes/square.py:11:9:   method area\n',
    ],
  ];
  for (const [name, args, stdout] of cases) {
    test(`cold: ${name}`, async () => {
      const r = await ask(shapes, args, ['--no-daemon']);
      expect([r.stdout, r.exit]).toEqual([stdout, 0]);
    });
  }
  for (const round of ['warm', 'asked again']) {
    for (const [name, args, stdout] of cases) {
      test(`${round}: ${name}`, async () => {
        const r = await ask(shapes, args);
        expect([r.stdout, r.exit]).toEqual([stdout, 0]);
      });
    }
  }

  test('impls and calls: jedi offers neither, and no other server is allowed (exit 3, saying so)', async () => {
    const impls = await ask(shapes, ['impls', 'shapes/shape.py:13:area']);
    const calls = await ask(shapes, ['calls', 'shapes/geometry.py:4:area_of']);
    expect([impls.exit, calls.exit]).toEqual([3, 3]);
    expect(impls.stderr).toContain('jedi-language-server cannot answer implementations');
    expect(calls.stderr).toContain('jedi-language-server cannot answer the call hierarchy');
  });
});

describe('six 1.17.0 (a real library)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-six-'));
  made.push(dir);
  const unzip = Bun.spawnSync(
    [
      'python3',
      '-c',
      `import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extract('six.py', sys.argv[2])`,
      join(REPO, '.tools', 'wheels', 'six-1.17.0-py2.py3-none-any.whl'),
      dir,
    ],
    { stderr: 'inherit' },
  );

  test('def of a function from its use', async () => {
    expect(unzip.exitCode).toBe(0);
    const r = await ask(dir, ['def', 'six.py:120:_import_module']);
    expect([r.stdout, r.exit]).toEqual(['six.py:85:5: def _import_module(name):\n', 0]);
  });

  test("refs of a base class: its subclasses' bases", async () => {
    const r = await ask(dir, ['refs', 'six.py:91:_LazyDescr']);
    expect([r.stdout, r.exit]).toEqual([
      'six.py:108:19: class MovedModule(_LazyDescr):  (in MovedModule)\nsix.py:144:22: class MovedAttribute(_LazyDescr):  (in MovedAttribute)\n',
      0,
    ]);
  });

  test('hover: the signature and the docstring', async () => {
    const r = await ask(dir, ['hover', 'six.py:885:add_metaclass']);
    expect([r.stdout, r.exit]).toEqual([
      'def add_metaclass(metaclass)\n---\nClass decorator for creating a class with a metaclass.\nFull name: six.add_metaclass\n',
      0,
    ]);
  });
});

describe('after an edit, and after it is taken back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-jedi-edit-'));
  made.push(dir);
  cpSync(shapes, dir, { recursive: true });
  const main = join(dir, 'main.py');
  const before = readFileSync(main, 'utf8');

  test('warm first', async () => {
    const r = await ask(dir, ['refs', 'shapes/geometry.py:15:total_area']);
    expect([r.stdout, r.exit]).toEqual([TOTAL_AREA_REFS, 0]);
  });

  test('a use added on disk is found at once', async () => {
    writeFileSync(main, `${before}again = total_area(shapes, "m")\n`);
    const r = await ask(dir, ['refs', 'shapes/geometry.py:15:total_area']);
    expect([r.stdout, r.exit]).toEqual([
      `${TOTAL_AREA_REFS}main.py:8:9: again = total_area(shapes, "m")  (in again)\n`,
      0,
    ]);
  });

  test('taken back: the uses as before', async () => {
    writeFileSync(main, before);
    const r = await ask(dir, ['refs', 'shapes/geometry.py:15:total_area']);
    expect([r.stdout, r.exit]).toEqual([TOTAL_AREA_REFS, 0]);
  });
});
