/**
 * Monorepos for the tests, written into scratch folders (each its own git
 * checkout, as a user's is): made-up workspaces of two packages for each
 * language, and one real one from the registry (two packages of TanStack
 * Query, whose npm tarballs ship their sources).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, REPO } from './lspq';

/**
 * A new folder outside any other project (the tests' checkout holds a
 * tsconfig.json, which the TypeScript servers would search as an ancestor
 * solution of a workspace inside it). Removed by the caller.
 */
function scratchDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `lspq-${prefix}-`));
}

/**
 * A folder with `tsc` linked to the repository's TypeScript 7, for PATH:
 * how a user with TypeScript 7 installed globally has it (the workspaces
 * are outside the repository, so its node_modules is not above them).
 */
export function typescriptOnPath(): string {
  const dir = scratchDir('tsc');
  symlinkSync(join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), join(dir, 'tsc'));
  return dir;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function commit(root: string): string {
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'workspace');
  return root;
}

const TSCONFIG = (extra: Record<string, unknown> = {}) =>
  `${JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        skipLibCheck: true,
        types: [],
        ...extra,
      },
      include: ['src'],
    },
    null,
    2,
  )}\n`;

/** How the workspace is declared: package.json workspaces, pnpm-workspace.yaml, or a solution tsconfig with references. */
export type TsWorkspaceKind = 'npm' | 'pnpm' | 'references';

/**
 * Package a (`@x/a`) exports `shared` from src/index.ts and calls it in
 * src/use.ts; package b imports it from `@x/a` (linked in node_modules, as
 * the package manager links it) and calls it.
 */
export function tsWorkspace(kind: TsWorkspaceKind): string {
  const root = scratchDir(`ws-${kind}`);
  const composite = kind === 'references' ? { composite: true, outDir: 'out' } : { noEmit: true };
  write(root, {
    'package.json': `${JSON.stringify({ name: 'ws', private: true, ...(kind === 'npm' ? { workspaces: ['packages/*'] } : {}) })}\n`,
    'packages/a/package.json': `${JSON.stringify({ name: '@x/a', version: '1.0.0', types: 'src/index.ts' })}\n`,
    'packages/a/tsconfig.json': TSCONFIG(composite),
    'packages/a/src/index.ts': 'export function shared(n: number): number {\n  return n * 2;\n}\n',
    'packages/a/src/use.ts': "import { shared } from './index';\n\nexport const twice = shared(2);\n",
    'packages/a/src/helper.ts': 'export const helper = 1;\n',
    'packages/a/src/shape.ts': 'export interface Shape {\n  area(): number;\n}\n',
    'packages/b/package.json': `${JSON.stringify({ name: '@x/b', version: '1.0.0', dependencies: { '@x/a': '*' } })}\n`,
    'packages/b/tsconfig.json':
      kind === 'references'
        ? TSCONFIG(composite).replace('"include"', '"references": [{ "path": "../a" }],\n  "include"')
        : TSCONFIG(composite),
    'packages/b/src/main.ts': "import { shared } from '@x/a';\n\nexport const result = shared(3) + shared(4);\n",
    'packages/b/src/deep.ts': "import { helper } from '@x/a/src/helper';\n\nexport const h = helper;\n",
    'packages/b/src/square.ts':
      "import type { Shape } from '@x/a/src/shape';\n\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n",
  });
  if (kind === 'pnpm') write(root, { 'pnpm-workspace.yaml': 'packages:\n  - packages/*\n' });
  if (kind === 'references')
    write(root, {
      'tsconfig.json': `${JSON.stringify({ files: [], references: [{ path: 'packages/a' }, { path: 'packages/b' }] }, null, 2)}\n`,
    });
  mkdirSync(join(root, 'node_modules', '@x'), { recursive: true });
  symlinkSync('../../packages/a', join(root, 'node_modules', '@x', 'a'));
  symlinkSync('../../packages/b', join(root, 'node_modules', '@x', 'b'));
  write(root, { '.gitignore': 'node_modules/\nout/\n*.tsbuildinfo\n' });
  return commit(root);
}

export const TANSTACK = join(REPO, '.tools', 'node_modules', '@tanstack');

/**
 * TanStack Query's monorepo, in part: packages/query-core and
 * packages/query-persist-client-core as published (sources included), an
 * npm workspace over them, each package's tsconfig resolving the other
 * to its sources by the monorepo's own export condition.
 */
export function tanstackWorkspace(): string {
  const root = scratchDir('ws-tanstack');
  const tsconfig = `${JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        target: 'ES2020',
        lib: ['ES2020', 'DOM'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        customConditions: ['@tanstack/custom-condition'],
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ['src', 'env.d.ts'],
    },
    null,
    2,
  )}\n`;
  for (const name of ['query-core', 'query-persist-client-core']) {
    const dir = join(root, 'packages', name);
    cpSync(join(TANSTACK, name), dir, { recursive: true, dereference: true });
    rmSync(join(dir, 'build'), { recursive: true, force: true });
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
    // The monorepo's sources read process.env.NODE_ENV: @types/node's one line of it.
    write(dir, {
      'tsconfig.json': tsconfig,
      'env.d.ts': 'declare const process: { env: Record<string, string | undefined> };\n',
    });
  }
  write(root, {
    'package.json': `${JSON.stringify({ name: 'query', private: true, workspaces: ['packages/*'] })}\n`,
    '.gitignore': 'node_modules/\n',
  });
  mkdirSync(join(root, 'node_modules', '@tanstack'), { recursive: true });
  symlinkSync('../../packages/query-core', join(root, 'node_modules', '@tanstack', 'query-core'));
  return commit(root);
}

/** A Cargo workspace of two crates: `a` exports `shared`, `b` (a binary) depends on it by path. */
export function cargoWorkspace(): string {
  const root = scratchDir('ws-cargo');
  write(root, {
    'Cargo.toml': '[workspace]\nmembers = ["crates/a", "crates/b"]\nresolver = "2"\n',
    'crates/a/Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n',
    'crates/a/src/lib.rs':
      'pub fn shared(n: i32) -> i32 {\n    n * 2\n}\n\npub fn twice() -> i32 {\n    shared(2)\n}\n',
    'crates/b/Cargo.toml':
      '[package]\nname = "b"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\na = { path = "../a" }\n',
    'crates/b/src/main.rs': 'use a::shared;\n\nfn main() {\n    println!("{}", shared(3) + a::twice());\n}\n',
    '.gitignore': 'target/\nCargo.lock\n',
  });
  return commit(root);
}

/**
 * A uv workspace of two packages in src layouts: `pkg_a` defines
 * `shared`, `pkg_b` imports it. The workspace's .venv has both installed
 * editable, as `uv sync` leaves it: a .pth file per package naming its
 * src folder (made with the standard venv module, so uv is not needed).
 */
export function uvWorkspace(): string {
  const root = scratchDir('ws-uv');
  const project = (name: string, deps: string[]) =>
    `[project]\nname = "${name}"\nversion = "0.1.0"\ndependencies = [${deps.map((d) => `"${d}"`).join(', ')}]\n`;
  write(root, {
    'pyproject.toml': `${project('ws', [])}\n[tool.uv.workspace]\nmembers = ["packages/*"]\n`,
    'packages/a/pyproject.toml': project('pkg-a', []),
    'packages/a/src/pkg_a/__init__.py': 'def shared(n: int) -> int:\n    return n * 2\n\n\nTWICE = shared(2)\n',
    'packages/b/pyproject.toml': `${project('pkg-b', ['pkg-a'])}\n[tool.uv.sources]\npkg-a = { workspace = true }\n`,
    'packages/b/src/pkg_b/__init__.py': '',
    'packages/b/src/pkg_b/main.py': 'from pkg_a import shared\n\nRESULT = shared(3) + shared(4)\n',
    '.gitignore': '.venv/\n__pycache__/\n',
  });
  const made = Bun.spawnSync(['python3', '-m', 'venv', '--without-pip', join(root, '.venv')]);
  if (made.exitCode !== 0) throw new Error(`python3 -m venv: ${made.stderr.toString()}`);
  const site = Bun.spawnSync([
    join(root, '.venv', 'bin', 'python'),
    '-c',
    'import sysconfig; print(sysconfig.get_paths()["purelib"])',
  ])
    .stdout.toString()
    .trim();
  writeFileSync(join(site, '_pkg_a.pth'), `${join(root, 'packages', 'a', 'src')}\n`);
  writeFileSync(join(site, '_pkg_b.pth'), `${join(root, 'packages', 'b', 'src')}\n`);
  return commit(root);
}

/** A go.work over two modules: `example.com/a` exports Shared, `example.com/b` calls it. */
export function goWorkspace(): string {
  const root = scratchDir('ws-go');
  write(root, {
    'go.work': 'go 1.22\n\nuse (\n\t./a\n\t./b\n)\n',
    'a/go.mod': 'module example.com/a\n\ngo 1.22\n',
    'a/a.go': 'package a\n\nfunc Shared(n int) int {\n\treturn n * 2\n}\n\nfunc Twice() int {\n\treturn Shared(2)\n}\n',
    'b/go.mod': 'module example.com/b\n\ngo 1.22\n\nrequire example.com/a v0.0.0\n',
    'b/main.go':
      'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/a"\n)\n\nfunc main() {\n\tfmt.Println(a.Shared(3) + a.Twice())\n}\n',
  });
  return commit(root);
}
