/**
 * Files created, renamed and deleted while the daemon is warm: every
 * server must know of them before it answers, whatever it watches for
 * itself. Asked at once after the change, a server's own watcher lags:
 * a new file calling a function was missing from TypeScript's and
 * pyright's references before lspq opened created files itself.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface Case {
  name: string;
  fixture: string;
  args: string[];
  /** A new file calling the function, and the references it adds. */
  created: string;
  content: string;
  lines: (file: string) => string[];
  renamed: string;
}

const CASES: Case[] = [
  {
    name: 'TypeScript 7',
    fixture: 'ts-shapes',
    args: ['refs', 'src/geometry.ts:13:totalArea'],
    created: 'src/extra.ts',
    content: "import { totalArea } from './geometry';\nexport const t = totalArea([], 'cm');\n",
    lines: (f) => [
      `${f}:1:10: import { totalArea } from './geometry';`,
      `${f}:2:18: export const t = totalArea([], 'cm');  (in t)`,
    ],
    renamed: 'src/moved.ts',
  },
  {
    name: 'typescript-language-server',
    fixture: 'ts-shapes',
    args: ['refs', 'src/geometry.ts:13:totalArea', '--server', 'typescript-language-server'],
    created: 'src/extra.ts',
    content: "import { totalArea } from './geometry';\nexport const t = totalArea([], 'cm');\n",
    lines: (f) => [
      `${f}:1:10: import { totalArea } from './geometry';`,
      `${f}:2:18: export const t = totalArea([], 'cm');  (in t)`,
    ],
    renamed: 'src/moved.ts',
  },
  {
    name: 'pyright',
    fixture: 'py-shapes',
    args: ['refs', 'shapes/geometry.py:15:total_area'],
    created: 'extra.py',
    content: 'from shapes.geometry import total_area\n\nt = total_area([], "cm")\n',
    lines: (f) => [`${f}:1:29: from shapes.geometry import total_area`, `${f}:3:5: t = total_area([], "cm")`],
    renamed: 'moved.py',
  },
  {
    name: 'gopls',
    fixture: 'go-shapes',
    args: ['refs', 'geometry.go:17:TotalArea'],
    created: 'extra.go',
    content: 'package main\n\nvar t = TotalArea(nil, "cm")\n',
    lines: (f) => [`${f}:3:9: var t = TotalArea(nil, "cm")  (in t)`],
    renamed: 'moved.go',
  },
];

const sorted = (lines: string[]) => `${[...lines].sort().join('\n')}\n`;

for (const c of CASES) {
  describe(`${c.name}: files created, renamed and deleted under a warm server`, () => {
    const dir = copyFixture(c.fixture);
    scratch.push(dir);
    let before: string[] = [];

    test('warm answer before any change', async () => {
      const r = await lspq.run(c.args, { cwd: dir });
      expect(r.exit).toBe(0);
      before = r.stdout.trimEnd().split('\n');
      expect(before.length).toBeGreaterThan(0);
      // Asked twice: the second answer is the same.
      expect((await lspq.run(c.args, { cwd: dir })).stdout).toBe(r.stdout);
    });

    test('a file created since is in the references at once', async () => {
      writeFileSync(join(dir, c.created), c.content);
      expect((await lspq.run(c.args, { cwd: dir })).stdout).toBe(sorted([...before, ...c.lines(c.created)]));
    });

    test('renamed with mv: the new path, never the old one', async () => {
      renameSync(join(dir, c.created), join(dir, c.renamed));
      expect((await lspq.run(c.args, { cwd: dir })).stdout).toBe(sorted([...before, ...c.lines(c.renamed)]));
    });

    test('deleted: gone from the answer, which is the first one again', async () => {
      unlinkSync(join(dir, c.renamed));
      expect((await lspq.run(c.args, { cwd: dir })).stdout).toBe(sorted(before));
    });
  });
}
