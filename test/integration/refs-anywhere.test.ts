/**
 * refs gives the same set wherever it is asked, at a use or at the
 * declaration, with the declarations only under --include-declaration.
 * Servers do not: with includeDeclaration false, a fresh pyright asked at
 * a call site answered nothing (or only the declaration), and
 * typescript-language-server kept the declaration when asked at a use. Each
 * server is asked first at a use, cold, in a daemon of its own.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { FIXTURES, Lspq, prepareCFixture } from '../helpers/lspq';

interface Case {
  server: string;
  fixture: string;
  use: string;
  declaration: string;
  /** The references, as printed from the fixture's folder. */
  refs: string[];
  /** What --include-declaration adds. */
  declarations: string[];
}

const TS_REFS = [
  "src/main.ts:3:10: import { totalArea } from './geometry';",
  "src/main.ts:7:36: const 名前 = '🎉 图形'; console.log(名前, totalArea(shapes, 'cm'));",
];
const TS_DECL = ['src/geometry.ts:13:17: export function totalArea(shapes: Shape[], unit: Unit): string {'];
const PY_REFS = [
  'main.py:2:29: from shapes.geometry import total_area',
  'main.py:7:24: 名前 = "🎉 图形"; print(名前, total_area(shapes, "cm"))',
];
const PY_DECL = ['shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:'];

const CASES: Case[] = [
  {
    server: 'typescript',
    fixture: 'ts-shapes',
    use: 'src/main.ts:7:totalArea',
    declaration: 'src/geometry.ts:13:totalArea',
    refs: TS_REFS,
    declarations: TS_DECL,
  },
  {
    server: 'typescript-language-server',
    fixture: 'ts-shapes',
    use: 'src/main.ts:7:totalArea',
    declaration: 'src/geometry.ts:13:totalArea',
    refs: TS_REFS,
    declarations: TS_DECL,
  },
  {
    server: 'pyright',
    fixture: 'py-shapes',
    use: 'main.py:7:total_area',
    declaration: 'shapes/geometry.py:15:total_area',
    refs: PY_REFS,
    declarations: PY_DECL,
  },
  {
    server: 'basedpyright',
    fixture: 'py-shapes',
    use: 'main.py:7:total_area',
    declaration: 'shapes/geometry.py:15:total_area',
    refs: PY_REFS,
    declarations: PY_DECL,
  },
  {
    // A method called on an instance: the case pyright answered with the declaration alone.
    server: 'pyright',
    fixture: 'py-shapes',
    use: 'shapes/geometry.py:5:area',
    declaration: 'shapes/shape.py:13:area',
    refs: ['shapes/geometry.py:5:18: return shape.area()  (in area_of)'],
    declarations: ['shapes/shape.py:13:9: def area(self) -> float: ...  (in Shape)'],
  },
  {
    server: 'gopls',
    fixture: 'go-shapes',
    use: 'main.go:7:TotalArea',
    declaration: 'geometry.go:17:TotalArea',
    refs: ['main.go:7:32: 名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm"))  (in main)'],
    declarations: ['geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {'],
  },
  {
    server: 'rust-analyzer',
    fixture: 'rust-shapes',
    use: 'src/main.rs:13:total_area',
    declaration: 'src/geometry.rs:15:total_area',
    refs: [
      'src/main.rs:7:15: use geometry::total_area;',
      'src/main.rs:13:44: let 名前 = "🎉 图形"; println!("{} {}", 名前, total_area(&shapes, "cm"));  (in main)',
    ],
    declarations: ['src/geometry.rs:15:8: pub fn total_area(shapes: &[Box<dyn Shape>], unit: Unit) -> String {'],
  },
  {
    // Two declarations: the header's and the definition. Asked at the header, clangd's own answer kept it.
    server: 'clangd',
    fixture: 'c-shapes',
    use: 'main.c:7:total_area',
    declaration: 'shape.h:13:total_area',
    refs: ['main.c:7:49: const char *名前 = "🎉 图形"; printf("%s %f\\n", 名前, total_area(shapes, 2));  (in main)'],
    declarations: [
      'geometry.c:16:8: double total_area(const struct shape *shapes, int count)',
      'shape.h:13:8: double total_area(const struct shape *shapes, int count);',
    ],
  },
];

const daemons: Lspq[] = [];
afterAll(async () => {
  for (const d of daemons) expect(await d.stop()).toEqual([]);
});

/** In lspq's order: by path, then line and column. */
const sorted = (lines: string[]) => {
  const place = (l: string) => l.split(':');
  const order = (a: string, b: string) => {
    const [pa = '', la = '0', ca = '0'] = place(a);
    const [pb = '', lb = '0', cb = '0'] = place(b);
    return pa < pb ? -1 : pa > pb ? 1 : Number(la) - Number(lb) || Number(ca) - Number(cb);
  };
  return `${[...lines].sort(order).join('\n')}\n`;
};

for (const c of CASES) {
  describe(`${c.server}: refs of ${c.declaration.split(':').pop()}`, () => {
    const lspq = new Lspq();
    daemons.push(lspq);
    if (c.fixture === 'c-shapes') prepareCFixture();
    const cwd = `${FIXTURES}/${c.fixture}`;
    const refs = (target: string, ...flags: string[]) =>
      lspq.run(['refs', target, '--server', c.server, ...flags], { cwd });

    test('at a use, cold: the uses, not the declaration', async () => {
      const r = await refs(c.use);
      expect([r.stdout, r.exit]).toEqual([sorted(c.refs), 0]);
    });

    test('at the declaration: the same', async () => {
      expect((await refs(c.declaration)).stdout).toBe(sorted(c.refs));
    });

    test('--include-declaration, at a use and at the declaration: the declarations added', async () => {
      const all = sorted([...c.refs, ...c.declarations]);
      expect((await refs(c.use, '--include-declaration')).stdout).toBe(all);
      expect((await refs(c.declaration, '--include-declaration')).stdout).toBe(all);
    });

    test('asked again at the use: the same', async () => {
      expect((await refs(c.use)).stdout).toBe(sorted(c.refs));
    });
  });
}
