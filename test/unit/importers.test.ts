/**
 * Which files a change can break (src/project/importers.ts): the changed
 * files and their importers, transitively, for TypeScript, Python and Go;
 * every file wherever the text cannot tell (a script's globals, `declare
 * global`, an alias, a dynamic import, a build file).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesReached } from '../../src/project/importers';

const ROOT = '/p';
const at = (files: Record<string, string>) => {
  const paths = Object.keys(files).map((f) => join(ROOT, f));
  const read = (p: string) => files[p.slice(ROOT.length + 1)];
  return (changed: string[], after?: Record<string, string | null>) => {
    const changes = new Map(changed.map((c) => [join(ROOT, c), [files[c] ?? null, after?.[c] ?? files[c] ?? null]]));
    const reached = filesReached(changes, paths, read, ROOT);
    return reached && [...reached].map((p) => p.slice(ROOT.length + 1)).sort();
  };
};

describe('TypeScript and JavaScript', () => {
  const reach = at({
    'src/lib.ts': 'export function scale(x: number) { return x * 2 }\n',
    'src/mid.ts': "export { scale } from './lib'\n",
    'src/top.ts': "import { scale } from './mid.js'\nexport const t = scale(1)\n",
    'src/lazy.ts': "export const l = import('./lib')\n",
    'src/req.cjs': "const { scale } = require('./lib')\nmodule.exports = scale\n",
    'src/index/index.ts': "export * from '../top'\n",
    'src/uses-index.ts': "import { t } from './index'\nexport const u = t\n",
    'src/alone.ts': "import { readFileSync } from 'node:fs'\nimport * as path from 'path'\nexport const a = 1\n",
    'src/types.d.ts': '/// <reference path="./lib.ts" />\nexport type T = number\n',
    'src/multi.ts': 'import {\n  scale,\n} from "./lib"\nexport const m = scale\n',
  });

  test('the changed file, its importers and theirs; .js written for .ts, index files, require, import(), references', () => {
    expect(reach(['src/lib.ts'])).toEqual([
      'src/index/index.ts',
      'src/lazy.ts',
      'src/lib.ts',
      'src/mid.ts',
      'src/multi.ts',
      'src/req.cjs',
      'src/top.ts',
      'src/types.d.ts',
      'src/uses-index.ts',
    ]);
  });

  test('a file nothing imports: itself alone; Node built-ins are not the project', () => {
    expect(reach(['src/uses-index.ts'])).toEqual(['src/uses-index.ts']);
    expect(reach(['src/alone.ts'])).toEqual(['src/alone.ts']);
  });

  test('a new file: those that import its path', () => {
    const reachNew = at({ 'a.ts': "import { x } from './made'\nexport const y = x\n", 'b.ts': 'export const b = 1\n' });
    expect(reachNew(['made.ts'], { 'made.ts': 'export const x = 1\n' })).toEqual(['a.ts', 'made.ts']);
  });

  test('a change whose declarations others see without an import: every file (a script, before or after; declare global; an augmentation)', () => {
    const files = {
      'g.ts': 'const shared = 1\n',
      'm.ts': 'export const m = 1\n',
      'aug.ts': "export {}\ndeclare module 'lib' {\n  interface X { y: number }\n}\n",
      'glob.ts': 'export {}\ndeclare global {\n  var z: number\n}\n',
    };
    const reach = at(files);
    expect(reach(['g.ts'])).toBeUndefined();
    expect(reach(['aug.ts'])).toBeUndefined();
    expect(reach(['glob.ts'])).toBeUndefined();
    // A module made a script by the change: its names become globals.
    expect(reach(['m.ts'], { 'm.ts': 'const m = 1\n' })).toBeUndefined();
    expect(reach(['m.ts'])).toEqual(['m.ts']);
  });

  test('an import the text cannot place is taken as importing anything: an alias, a package not installed; a computed import() is no edge (the checker follows none)', () => {
    const reach = at({
      'lib.ts': 'export const x = 1\n',
      'alias.ts': "import { x } from '@/lib'\nexport const a = x\n",
      'computed.ts': "const name = './lib'\nexport const c = import(name)\n",
      'uses-alias.ts': "import { a } from './alias'\nexport const u = a\n",
      'other.ts': 'export const o = 2\n',
    });
    expect(reach(['lib.ts'])).toEqual(['alias.ts', 'lib.ts', 'uses-alias.ts']);
    // They are reached by any change, as they might import it.
    expect(reach(['other.ts'])).toEqual(['alias.ts', 'other.ts', 'uses-alias.ts']);
  });

  test('a file of another language changed (a tsconfig, a JSON): every file', () => {
    expect(reach(['tsconfig.json'])).toBeUndefined();
    expect(reach(['src/lib.ts', 'README.md'])).toBeUndefined();
  });
});

describe('node_modules: a package outside the workspace, or one of its own linked in', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-importers-')));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'node_modules', 'outside'), { recursive: true });
  mkdirSync(join(root, 'packages', 'shared'), { recursive: true });
  symlinkSync(join(root, 'packages', 'shared'), join(root, 'node_modules', 'shared'));
  const files: Record<string, string> = {
    'packages/shared/index.ts': 'export const s = 1\n',
    'packages/app/uses-outside.ts': "import { o } from 'outside'\nexport const a = o\n",
    'packages/app/uses-shared.ts': "import { s } from 'shared'\nexport const b = s\n",
  };
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), t);
  }
  const read = (p: string) => files[p.slice(root.length + 1)];
  const paths = Object.keys(files).map((f) => join(root, f));

  test('the linked package is the workspace: its importer is reached; the installed one is not', () => {
    const changed = join(root, 'packages/shared/index.ts');
    const reached = filesReached(new Map([[changed, [files['packages/shared/index.ts']!]]]), paths, read, root);
    expect([...reached!].map((p) => p.slice(root.length + 1)).sort()).toEqual([
      'packages/app/uses-shared.ts',
      'packages/shared/index.ts',
    ]);
  });
});

describe('Python', () => {
  const reach = at({
    'pkg/__init__.py': 'from ._core import run\n',
    'pkg/_core.py': 'def run() -> int:\n    return 1\n',
    'pkg/extra.py': 'from . import helpers\n',
    'pkg/helpers.py': 'X = 1\n',
    'app.py': 'import pkg\n\nprint(pkg.run())\n',
    'direct.py': 'from pkg._core import (\n    run,\n)\n',
    'star.py': 'from pkg import *\n',
    'alone.py': 'import os\n',
    'dynamic.py': 'import importlib\nm = importlib.import_module("pkg")\n',
  });

  test("a module's importers through its package's __init__, relative and parenthesised imports; importlib is no edge", () => {
    expect(reach(['pkg/_core.py'])).toEqual([
      'app.py',
      'direct.py',
      'pkg/__init__.py',
      'pkg/_core.py',
      // `from . import helpers` reads the package's __init__ first.
      'pkg/extra.py',
      'star.py',
    ]);
    // `from . import helpers` names helpers and the package it starts from.
    expect(reach(['pkg/helpers.py'])).toEqual(['pkg/extra.py', 'pkg/helpers.py']);
    // A module imported by a computed name gives the checker nothing to follow.
    expect(reach(['alone.py'])).toEqual(['alone.py']);
  });
});

describe('Go', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-importers-go-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'go.mod': 'module example.com/m\n\ngo 1.22\n',
    'lib/lib.go': 'package lib\n\nfunc F() int { return 1 }\n',
    'lib/lib_test.go': 'package lib_test\n\nimport "example.com/m/lib"\n',
    'mid/mid.go': 'package mid\n\nimport (\n\t"fmt"\n\tl "example.com/m/lib"\n)\n\nvar _ = fmt.Sprint(l.F())\n',
    'top/top.go': 'package top\n\nimport "example.com/m/mid"\n',
    'top/other.go': 'package top\n',
    'alone/alone.go': 'package alone\n\nimport "strings"\n',
  };
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), t);
  }
  const read = (p: string) => files[p.slice(dir.length + 1)];
  const sources = Object.keys(files).filter((f) => f.endsWith('.go'));
  const reach = (changed: string) => {
    const r = filesReached(
      new Map([[join(dir, changed), [files[changed]!]]]),
      sources.map((f) => join(dir, f)),
      read,
      dir,
    );
    return r && [...r].map((p) => p.slice(dir.length + 1)).sort();
  };

  test("every file of the changed file's package and of each package importing it, transitively", () => {
    expect(reach('lib/lib.go')).toEqual(['lib/lib.go', 'lib/lib_test.go', 'mid/mid.go', 'top/other.go', 'top/top.go']);
    expect(reach('top/other.go')).toEqual(['top/other.go', 'top/top.go']);
    expect(reach('alone/alone.go')).toEqual(['alone/alone.go']);
  });

  test('a file of a kind not read (go.mod, which gopls diagnoses) is always among those asked', () => {
    const r = filesReached(
      new Map([[join(dir, 'alone/alone.go'), [files['alone/alone.go']!]]]),
      [...sources, 'go.mod'].map((f) => join(dir, f)),
      read,
      dir,
    );
    expect([...r!].map((p) => p.slice(dir.length + 1)).sort()).toEqual(['alone/alone.go', 'go.mod']);
  });

  test('go.mod changed, or a file outside any module: every file', () => {
    expect(reach('go.mod')).toBeUndefined();
  });
});
