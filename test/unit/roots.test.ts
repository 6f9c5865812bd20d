import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectsUnder } from '../../src/engine/projects';
import { findRoot } from '../../src/lsp/servers/locate';
import { BUILTIN_SERVERS } from '../../src/lsp/servers/registry';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-roots-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function files(...paths: string[]): void {
  for (const p of paths) {
    mkdirSync(join(base, p, '..'), { recursive: true });
    writeFileSync(join(base, p), '');
  }
}

const spec = (id: string) => BUILTIN_SERVERS.find((s) => s.id === id)!;

describe('Python roots without a marker: the folder above the top-most package', () => {
  files(
    'site/rich/__init__.py',
    'site/rich/table.py',
    'site/rich/_sub/__init__.py',
    'site/rich/_sub/deep.py',
    'loose/script.py',
  );

  test.each(['pyright', 'basedpyright', 'pylsp', 'ruff'])(
    '%s: a module of the package, and one in a sub-package',
    (id) => {
      expect(findRoot(spec(id), join(base, 'site/rich/table.py'))).toBe(join(base, 'site'));
      expect(findRoot(spec(id), join(base, 'site/rich/_sub/deep.py'))).toBe(join(base, 'site'));
    },
  );

  test('a file in no package keeps its folder', () => {
    expect(findRoot(spec('pyright'), join(base, 'loose/script.py'))).toBe(join(base, 'loose'));
  });

  test('a marker wins over the package rule', () => {
    files('proj/pyproject.toml', 'proj/src/pkg/__init__.py', 'proj/src/pkg/m.py');
    expect(findRoot(spec('pyright'), join(base, 'proj/src/pkg/m.py'))).toBe(join(base, 'proj'));
  });

  test('other languages do not follow it', () => {
    files('go/x/__init__.py', 'go/x/a.go');
    expect(findRoot(spec('gopls'), join(base, 'go/x/a.go'))).toBe(join(base, 'go/x'));
  });
});

describe('workspace roots: the declaring folder, whichever package', () => {
  const write = (path: string, text: string) => {
    mkdirSync(join(base, path, '..'), { recursive: true });
    writeFileSync(join(base, path), text);
  };
  const declarations: [string, Record<string, string>][] = [
    ['npm', { 'package.json': '{ "workspaces": ["packages/*"] }' }],
    ['pnpm', { 'pnpm-workspace.yaml': 'packages:\n  - packages/*\n', 'package.json': '{}' }],
    ['lerna', { 'lerna.json': '{}', 'package.json': '{}' }],
    ['nx', { 'nx.json': '{}' }],
    ['turbo', { 'turbo.json': '{}' }],
    [
      'references',
      { 'tsconfig.json': '{\n  // a solution\n  "files": [],\n  "references": [{ "path": "packages/a" }],\n}\n' },
    ],
  ];
  for (const [kind, top] of declarations) {
    test(`${kind}: both TypeScript servers root a package's file at the workspace`, () => {
      const root = join(base, `ws-${kind}`);
      mkdirSync(join(root, '.git'), { recursive: true });
      for (const [f, text] of Object.entries(top)) write(`ws-${kind}/${f}`, text);
      write(`ws-${kind}/packages/a/package.json`, '{ "name": "a" }');
      write(`ws-${kind}/packages/a/tsconfig.json`, '{}');
      write(`ws-${kind}/packages/a/src/index.ts`, '');
      for (const id of ['typescript', 'typescript-language-server'])
        expect(findRoot(spec(id), join(root, 'packages/a/src/index.ts'))).toBe(root);
    });
  }

  test('a tsconfig without references is a project, not a workspace', () => {
    write('plain/.git/HEAD', '');
    write('plain/tsconfig.json', '{ "compilerOptions": {} }');
    write('plain/packages/a/package.json', '{}');
    write('plain/packages/a/tsconfig.json', '{}');
    write('plain/packages/a/x.ts', '');
    expect(findRoot(spec('typescript'), join(base, 'plain/packages/a/x.ts'))).toBe(join(base, 'plain/packages/a'));
  });

  test("a declaration above the file's git checkout is not its workspace", () => {
    write('outer/package.json', '{ "workspaces": ["*"] }');
    write('outer/inner/.git/HEAD', '');
    write('outer/inner/package.json', '{}');
    write('outer/inner/x.ts', '');
    expect(findRoot(spec('typescript'), join(base, 'outer/inner/x.ts'))).toBe(join(base, 'outer/inner'));
  });

  test("uv: the Python servers root a member's file at the workspace; other servers keep the package", () => {
    write('uv/.git/HEAD', '');
    write('uv/pyproject.toml', '[project]\nname = "ws"\n\n[tool.uv.workspace]\nmembers = ["packages/*"]\n');
    write('uv/packages/a/pyproject.toml', '[project]\nname = "a"\n');
    write('uv/packages/a/src/a/__init__.py', '');
    for (const id of ['pyright', 'basedpyright', 'pylsp', 'jedi-language-server', 'ruff'])
      expect(findRoot(spec(id), join(base, 'uv/packages/a/src/a/__init__.py'))).toBe(join(base, 'uv'));
  });
});

describe('the projects of a workspace: a source file of each', () => {
  test("each tsconfig folder with its first source file, not a nested project's, nor node_modules", async () => {
    const w = (path: string) => {
      mkdirSync(join(base, 'projects', path, '..'), { recursive: true });
      writeFileSync(join(base, 'projects', path), '');
    };
    for (const f of [
      'tsconfig.json',
      'packages/a/tsconfig.json',
      'packages/a/src/z.ts',
      'packages/a/src/b.d.ts',
      'packages/a/nested/tsconfig.json',
      'packages/a/nested/n.ts',
      'packages/b/jsconfig.json',
      'packages/b/lib/main.js',
      'packages/c/tsconfig.json',
      'node_modules/x/tsconfig.json',
      'node_modules/x/i.ts',
    ])
      w(f);
    const isSource = (p: string) => /\.(ts|js)$/.test(p) && !p.endsWith('.d.ts');
    const root = join(base, 'projects');
    // The root's tsconfig.json holds no source file of its own (a solution): no entry.
    expect(await projectsUnder(root, isSource)).toEqual([
      { dir: join(root, 'packages/a'), file: join(root, 'packages/a/src/z.ts') },
      { dir: join(root, 'packages/a/nested'), file: join(root, 'packages/a/nested/n.ts') },
      { dir: join(root, 'packages/b'), file: join(root, 'packages/b/lib/main.js') },
    ]);
  });
});

describe('TypeScript roots: the tsconfig that holds a file, not a nearer package.json', () => {
  // A published package's tree (zod's sources): a package.json in sub-folders, one tsconfig at the top.
  files(
    'zodlike/package.json',
    'zodlike/tsconfig.json',
    'zodlike/src/index.ts',
    'zodlike/src/v4/package.json',
    'zodlike/src/v4/core/package.json',
    'zodlike/src/v4/core/schemas.ts',
    'pkgonly/package.json',
    'pkgonly/lib/util.js',
  );

  test.each(['typescript', 'typescript-language-server'])('%s: one root for every folder of the project', (id) => {
    expect(findRoot(spec(id), join(base, 'zodlike/src/index.ts'))).toBe(join(base, 'zodlike'));
    expect(findRoot(spec(id), join(base, 'zodlike/src/v4/core/schemas.ts'))).toBe(join(base, 'zodlike'));
  });

  test('without a tsconfig or jsconfig above, the package.json is the root', () => {
    expect(findRoot(spec('typescript-language-server'), join(base, 'pkgonly/lib/util.js'))).toBe(join(base, 'pkgonly'));
  });
});
