/**
 * A generator of hostile workspaces: a small real project in five
 * languages, placed in a layout an agent meets (an archive with or without
 * a real `.git`, folders named `:x`, `*`, `[a]`, `-x`, a gitlink), with a
 * marker-leaving program, interpreter, compiler, plugin, configuration or
 * index at every place lspq or a server looks, in every folder from the
 * project's sources up to the layout's top. Each way in, if it runs,
 * leaves a file named for it and its folder in `marks`: a test asserts the
 * folder empty (untrusted), or what it holds (trusted).
 */
import { chmodSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { git, REPO, toolsPath } from './lspq';

/** The project, the same in every layout: one definition and one use per language. */
export const PROJECT: Record<string, string> = {
  'tsconfig.json': '{"compilerOptions":{"strict":true,"plugins":[{"name":"evil-plugin"}]},"include":["src"]}\n',
  'package.json': '{"name":"p","private":true}\n',
  'src/lib.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
  'src/app.ts': "import { twice } from './lib';\nexport const four = twice(2);\n",
  'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
  'pyrightconfig.json': '{"venvPath": ".", "venv": ".venv"}\n',
  'src/lib_py.py': 'def twice(n):\n    return n * 2\n',
  'src/app_py.py': 'from lib_py import twice\n\nfour = twice(2)\n',
  'go.mod': 'module example.com/p\n\ngo 1.22\n\ntoolchain go1.999.0\n',
  'go.work': 'go 1.22\n\ntoolchain go1.999.0\n\nuse .\n',
  'main.go': 'package main\n\nfunc twice(n int) int { return n * 2 }\n\nfunc main() { _ = twice(2) }\n',
  'Cargo.toml':
    '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n\n[lib]\npath = "src/lib.rs"\n',
  'src/lib.rs': 'pub fn twice(n: i32) -> i32 {\n    n * 2\n}\n\npub fn four() -> i32 {\n    twice(2)\n}\n',
  'src/main.c': 'int twice(int n) { return n * 2; }\nint main(void) { return twice(2); }\n',
};

/** What each question must answer, untrusted, with the user's own servers. */
export const ANSWERS = {
  ts: { def: ['def', 'src/app.ts:2:twice'], out: 'src/lib.ts:1:17: export function twice(n: number): number {\n' },
  tsRefs: {
    refs: ['refs', 'src/lib.ts:1:twice'],
    out: "src/app.ts:1:10: import { twice } from './lib';\nsrc/app.ts:2:21: export const four = twice(2);  (in four)\n",
  },
  py: { def: ['def', 'src/app_py.py:3:twice'], out: 'src/lib_py.py:1:5: def twice(n):\n' },
  pylsp: { def: ['def', 'src/app_py.py:3:twice', '--server', 'pylsp'], out: 'src/lib_py.py:1:5: def twice(n):\n' },
  jedi: {
    def: ['def', 'src/app_py.py:3:twice', '--server', 'jedi-language-server'],
    out: 'src/lib_py.py:1:5: def twice(n):\n',
  },
  basedpyright: {
    def: ['def', 'src/app_py.py:3:twice', '--server', 'basedpyright'],
    out: 'src/lib_py.py:1:5: def twice(n):\n',
  },
  go: { def: ['def', 'main.go:5:twice'], out: 'main.go:3:6: func twice(n int) int { return n * 2 }\n' },
  rust: {
    def: ['def', 'src/lib.rs:6:twice', '--timeout', '120'],
    out: 'src/lib.rs:1:8: pub fn twice(n: i32) -> i32 {\n',
  },
  c: { def: ['def', 'src/main.c:2:twice'], out: 'src/main.c:1:5: int twice(int n) { return n * 2; }\n' },
};

/** The commands a server or lspq might find in a workspace's `node_modules/.bin` or `.venv/bin`, each shimmed. */
const PROGRAMS = [
  'typescript-language-server',
  'tsc',
  'tsserver',
  'pyright-langserver',
  'basedpyright-langserver',
  'pylsp',
  'jedi-language-server',
  'ruff',
  'gopls',
  'rust-analyzer',
  'clangd',
  'scip-typescript',
  'scip-python',
  'scip-go',
  'node',
  'go',
  'cargo',
  'rustc',
  'python',
  'python3',
  'cc',
  'git',
];

export interface Hostile {
  /** The project: where the questions are asked. */
  project: string;
  /** The layout's top: everything planted lies at or under it. */
  top: string;
  /** Where the marks land. */
  marks: string;
}

/** What ran, by mark: `what@folder` (folder from the layout's top, `/` as `~`). */
export const marksIn = (h: Hostile) => readdirSync(h.marks).sort();

const real = (command: string) => Bun.which(command, { PATH: toolsPath() });

/** A program that leaves `mark` and then does what the real one would (so a test sees the mark, not a failure). */
function shim(path: string, mark: string, realProgram: string | null): void {
  mkdirSync(dirname(path), { recursive: true });
  // In a box (its TMPDIR in lspq's scratch) it also says it ran there, where the box lets it write.
  const ran = `case "$TMPDIR" in */lspq/box/*) ( : > "$TMPDIR/ran-${basename(mark)}" ) 2>/dev/null ;; esac`;
  writeFileSync(
    path,
    `#!/bin/sh\n${ran}\n( : > '${mark}' ) 2>/dev/null\n${realProgram ? `exec '${realProgram}' "$@"` : 'exit 1'}\n`,
  );
  chmodSync(path, 0o755);
}

function write(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A script that leaves `mark` as it loads (JavaScript configuration, a tsserver plugin, tsserver itself). */
const markingJs = (mark: string, then = '') =>
  `{ const fs = require('node:fs'), t = process.env.TMPDIR || '';
  try { fs.writeFileSync(${JSON.stringify(mark)}, ''); } catch {}
  try { if (t.includes('/lspq/box/')) fs.writeFileSync(require('node:path').join(t, 'ran-' + ${JSON.stringify(basename(mark))}), ''); } catch {} }
${then}`;

/** A shared object that leaves `mark` when loaded (a compiler plugin). */
function markingLibrary(dir: string, mark: string): string {
  const source = join(dir, 'evil-plugin.c');
  write(
    source,
    `#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { FILE *f = fopen(${JSON.stringify(mark)}, "w"); if (f) fclose(f); }\n`,
  );
  const library = join(dir, 'evil-plugin.so');
  const built = Bun.spawnSync(['cc', '-shared', '-fPIC', '-o', library, source], { stderr: 'pipe' });
  if (built.exitCode !== 0) throw new Error(`cc: ${built.stderr.toString()}`);
  return library;
}

/**
 * Plants every way in, in folder `d`: programs in node_modules/.bin and a
 * .venv, TypeScript (5's tsserver.js and 7's native binary), a tsserver
 * plugin, a `.lsp.json` overriding every server, an index, a Rust sysroot
 * and toolchain, a clangd configuration loading a compiler plugin,
 * configuration that is code, and, with `refusing`, the files that make
 * rust-analyzer stay out (cargo's configuration).
 */
function plant(d: string, h: Hostile, refusing: boolean): void {
  const where = relative(h.top, d).replaceAll('/', '~') || '.';
  const mark = (what: string) => join(h.marks, `${what}@${where}`);
  for (const program of PROGRAMS) {
    shim(join(d, 'node_modules', '.bin', program), mark(`bin-${program}`), real(program));
    shim(join(d, '.venv', 'bin', program), mark(`venv-${program}`), real(program));
  }
  write(join(d, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  const site = join(d, '.venv', 'lib', 'python3.11', 'site-packages');
  write(join(site, 'sitecustomize.py'), `open(${JSON.stringify(mark('venv-sitecustomize'))}, 'w').close()\n`);
  write(join(site, 'evil.pth'), `import os; open(${JSON.stringify(mark('venv-pth'))}, 'w').close()\n`);
  const native = join(
    REPO,
    'node_modules',
    '@typescript',
    `typescript-${process.platform}-${process.arch}`,
    'lib',
    'tsc',
  );
  shim(
    join(d, 'node_modules', '@typescript', `typescript-${process.platform}-${process.arch}`, 'lib', 'tsc'),
    mark('ts7-native'),
    native,
  );
  write(join(d, 'node_modules', 'typescript', 'package.json'), '{"name":"typescript","version":"7.0.0"}\n');
  const tsserver = join(dirname(dirname(realpathSync(real('tsserver')!))), 'lib', 'tsserver.js');
  write(
    join(d, 'node_modules', 'typescript', 'lib', 'tsserver.js'),
    markingJs(mark('tsserver-js'), `require(${JSON.stringify(tsserver)});\n`),
  );
  write(join(d, 'node_modules', 'evil-plugin', 'package.json'), '{"name":"evil-plugin","main":"index.js"}\n');
  write(
    join(d, 'node_modules', 'evil-plugin', 'index.js'),
    markingJs(mark('tsserver-plugin'), 'module.exports = () => ({ create: (i) => i.languageService });\n'),
  );
  // A .lsp.json that overrides every server this project uses, and adds one.
  const overriding = (id: string) => {
    const path = join(d, '.lsp-shims', id);
    shim(
      path,
      mark(`lsp-json-${id}`),
      real(
        id === 'gopls' || id === 'clangd' || id === 'rust-analyzer'
          ? id
          : id === 'pyright'
            ? 'pyright-langserver'
            : 'typescript-language-server',
      ),
    );
    return path;
  };
  write(
    join(d, '.lsp.json'),
    JSON.stringify({
      'typescript-language-server': { command: overriding('typescript-language-server') },
      pyright: { command: overriding('pyright') },
      gopls: { command: overriding('gopls') },
      'rust-analyzer': { command: overriding('rust-analyzer') },
      clangd: { command: overriding('clangd') },
      evil: { command: overriding('evil'), args: ['--stdio'], extensionToLanguage: { '.ts': 'typescript' } },
    }),
  );
  // An index that is no index (read, it fails the question) and a fetched-index record naming it.
  write(join(d, '.lspq', 'index.scip'), 'not an index');
  write(
    join(d, '.lspq', 'fetched.json'),
    JSON.stringify({ url: 'https://example.com/x.scip', commit: 'c0ffee', file: join(d, '.lspq', 'index.scip') }),
  );
  // A Rust sysroot and toolchain of the workspace's own, whose rustc and cargo mark.
  for (const tool of ['rustc', 'cargo']) {
    shim(join(d, 'sys', 'bin', tool), mark(`sysroot-${tool}`), real(tool));
    shim(join(d, 'toolchain', 'bin', tool), mark(`toolchain-${tool}`), real(tool));
  }
  shim(join(d, 'toolchain', 'bin', 'rust-analyzer'), mark('toolchain-rust-analyzer'), real('rust-analyzer'));
  write(
    join(d, 'rust-project.json'),
    JSON.stringify({ sysroot: 'sys', crates: [{ root_module: 'src/lib.rs', edition: '2021', deps: [] }] }),
  );
  write(join(d, 'rust-toolchain.toml'), `[toolchain]\npath = ${JSON.stringify(join(d, 'toolchain'))}\n`);
  // clangd's configuration adding a compiler plugin.
  const library = markingLibrary(join(d, '.plugin'), mark('clang-plugin'));
  shim(join(d, '.plugin', 'cc'), mark('clangd-compiler'), real('cc'));
  write(
    join(d, '.clangd'),
    `CompileFlags:\n  Compiler: ${join(d, '.plugin', 'cc')}\n  Add: [-fplugin=${library}, -Xclang, -load, -Xclang, ${library}]\n`,
  );
  // jedi's own project file, which can name the interpreter jedi runs for the project.
  shim(join(d, '.jedi', 'python'), mark('jedi-project-python'), real('python3'));
  write(
    join(d, '.jedi', 'project.json'),
    JSON.stringify([1, { _path: d, _environment_path: join(d, '.jedi', 'python') }]),
  );
  // Configuration that is code.
  for (const config of [
    'eslint.config.js',
    'tailwind.config.js',
    'svelte.config.js',
    'graphql.config.js',
    'vite.config.js',
  ])
    write(join(d, config), markingJs(mark(config)));
  if (refusing) {
    shim(join(d, '.cargo', 'wrap'), mark('cargo-rustc-wrapper'), null);
    write(join(d, '.cargo', 'config.toml'), `[build]\nrustc-wrapper = ${JSON.stringify(join(d, '.cargo', 'wrap'))}\n`);
  }
}

/** The project's own files, with a build script and compile database that mark, at `dir`. */
function writeProject(dir: string, h: Hostile): void {
  for (const [path, text] of Object.entries(PROJECT)) write(join(dir, path), text);
  write(
    join(dir, 'build.rs'),
    `fn main() { std::fs::write(${JSON.stringify(join(h.marks, 'build-rs'))}, "").unwrap(); }\n`,
  );
  const library = markingLibrary(join(dir, '.plugin-db'), join(h.marks, 'compile-db-plugin'));
  write(
    join(dir, 'compile_commands.json'),
    JSON.stringify([
      { directory: dir, file: 'src/main.c', arguments: ['cc', `-fplugin=${library}`, '-c', 'src/main.c'] },
    ]),
  );
}

export type Layout = 'archive' | 'archive-with-git' | 'odd-names' | 'gitlink';

/**
 * A hostile workspace under `base` in a layout:
 * - archive: an unpacked archive (no .git) holding a cloned project (its own .git);
 * - archive-with-git: an archive that ships a real .git (committed, with a
 *   core.fsmonitor that marks), the project a folder of it;
 * - odd-names: the project under folders named `:x`, `*`, `[a]`, `-x`;
 * - gitlink: the project a submodule-style checkout (its .git a file) of a repository.
 * Every folder from the project's `src` up to the layout's top holds every way in.
 */
export function hostileWorkspace(
  base: string,
  layout: Layout,
  options: { refusing?: boolean; name?: string } = {},
): Hostile {
  const name = options.name ?? layout;
  const top = join(base, name);
  const marks = join(base, `${name}-marks`);
  mkdirSync(marks, { recursive: true });
  const above = layout === 'odd-names' ? [':x', '*', '[a]', '-x'] : layout === 'gitlink' ? ['super'] : ['top'];
  const project = join(top, ...above, 'proj');
  const h = { project, top, marks };
  mkdirSync(project, { recursive: true });
  writeProject(project, h);
  for (let d = join(project, 'src'); ; d = dirname(d)) {
    plant(d, h, options.refusing === true);
    if (d === top) break;
  }
  const commit = (dir: string) => {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hostile');
  };
  if (layout === 'archive-with-git') {
    const repo = join(top, 'top');
    git(repo, 'init', '-q', '-b', 'main');
    commit(repo);
    shim(join(repo, '.fsmonitor'), join(marks, 'git-fsmonitor'), null);
    git(repo, 'config', 'core.fsmonitor', join(repo, '.fsmonitor'));
  } else if (layout === 'gitlink') {
    const superRepo = join(top, 'super');
    git(superRepo, 'init', '-q', '-b', 'main');
    mkdirSync(join(superRepo, '.git', 'modules'), { recursive: true });
    git(project, 'init', '-q', '-b', 'main', `--separate-git-dir=${join(superRepo, '.git', 'modules', 'proj')}`);
    commit(project);
    commit(superRepo);
  } else {
    git(project, 'init', '-q', '-b', 'main');
    commit(project);
  }
  return h;
}
