/** One rule for what a project's folders are (src/project/folders.ts), and git's listing of ignored folders read. */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inDependencies, inNeverSources, neverSources, notSources } from '../../src/project/folders';
import { foldersOf } from '../../src/project/ignored';

const root = mkdtempSync(join(tmpdir(), 'lspq-folders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = (path: string, files: Record<string, string> = {}) => {
  mkdirSync(join(root, path), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, path, name), text);
  return join(root, path);
};

test('never sources: dependencies, caches, a virtual environment by its pyvenv.cfg, cargo target beside Cargo.toml', () => {
  dir('crate', { 'Cargo.toml': '' });
  const cases = {
    node_modules: neverSources(dir('node_modules')),
    '.git': neverSources(dir('.git')),
    env: neverSources(dir('env', { 'pyvenv.cfg': 'home = /usr/bin\n' })),
    'crate/target': neverSources(dir('crate/target')),
    'target (no crate)': neverSources(dir('target')),
    src: neverSources(dir('src')),
    build: neverSources(dir('build')),
  };
  expect(cases).toEqual({
    node_modules: true,
    '.git': true,
    env: true,
    'crate/target': true,
    'target (no crate)': false,
    src: false,
    build: false,
  });
});

test("build output is what git ignores; outside a checkout, the usual names; hidden folders and vendor are no one's sources", () => {
  const ignored = new Set([join(root, 'dist')]);
  expect({
    'dist, ignored': notSources(dir('dist'), ignored),
    'build, tracked': notSources(dir('build'), ignored),
    'build, no checkout': notSources(dir('build'), undefined),
    'out, no checkout': notSources(dir('out'), undefined),
    '.github': notSources(dir('.github'), ignored),
    vendor: notSources(dir('vendor'), ignored),
    packages: notSources(dir('packages'), ignored),
  }).toEqual({
    'dist, ignored': true,
    'build, tracked': false,
    'build, no checkout': true,
    'out, no checkout': true,
    '.github': true,
    vendor: true,
    packages: false,
  });
});

test("git's list of files: those in a folder never sources (a .venv git does not ignore, at any depth) are known as such", () => {
  const top = dir('listed');
  dir('listed/.venv/lib/python3.12/site-packages/pip', { '__init__.py': '' });
  writeFileSync(join(top, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  dir('listed/tools/env', { 'pyvenv.cfg': '', 'x.py': '' });
  dir('listed/src/app', { 'main.py': '' });
  const never = inNeverSources(top);
  expect(
    [
      '.venv/lib/python3.12/site-packages/pip/__init__.py',
      '.venv/pyvenv.cfg',
      'tools/env/x.py',
      'src/app/main.py',
      'main.py',
      'node_modules/x/index.js',
    ].map((p) => [p, never(join(top, p))]),
  ).toEqual([
    ['.venv/lib/python3.12/site-packages/pip/__init__.py', true],
    ['.venv/pyvenv.cfg', true],
    ['tools/env/x.py', true],
    ['src/app/main.py', false],
    ['main.py', false],
    ['node_modules/x/index.js', true],
  ]);
});

test("git's --directory listing: the folders (ending in a slash) as absolute paths, files left out", () => {
  expect([...foldersOf('/w', 'dist/\0node_modules/\0a.log\0packages/x/out/\0')]).toEqual([
    '/w/dist',
    '/w/node_modules',
    '/w/packages/x/out',
  ]);
});

test("a place a server names is a dependency's outside the project or in its folders of dependencies", () => {
  const project = dir('deps-project');
  dir('deps-project/env', { 'pyvenv.cfg': 'home = /usr/bin\n' });
  const theirs = inDependencies(project);
  const places = [
    'route.go',
    'pkg/vendor/github.com/x/y.go',
    'node_modules/zod/index.d.ts',
    'env/lib/python3.12/site.py',
    'vendored.go',
  ].map((p) => join(project, p));
  expect([...places, '/usr/local/go/src/regexp/regexp.go', `${project}-other/a.go`].map(theirs)).toEqual([
    false,
    true,
    true,
    true,
    false,
    true,
    true,
  ]);
});
