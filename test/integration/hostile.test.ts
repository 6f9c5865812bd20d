/**
 * A hostile repository, as an agent meets one right after cloning it: each
 * way in that a server or lspq reads leaves a mark if it runs. Untrusted,
 * no mark is left and the user's own servers still answer (exactly);
 * trusted, the project's own tools run where that is the point.
 * - a `.git` that git does not vouch for (an empty folder, a 0-byte file):
 *   nothing in it counts as the user's own;
 * - a committed node_modules/typescript (typescript-language-server would
 *   run the workspace's tsserver.js);
 * - a Rust build script (rust-analyzer builds and runs it as it loads the
 *   workspace), and a `.cargo/config.toml` that could name a program;
 * - an ESLint flat config (JavaScript the ESLint server loads);
 * - a committed SCIP index (the repository's word about its code);
 * - an edit that would reach a file outside the root through a link.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, git, Lspq, toolsPath } from '../helpers/lspq';

const lspq = new Lspq({ trusting: false });
const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-hostile-')));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const TS = 'export const x = 1;\nexport const y = x + 1;\n';
const tsls = Bun.which('typescript-language-server', { PATH: toolsPath() })!;
const LEFT_OUT =
  /^lspq: warning: left out .*: the workspace is not trusted(, and no box can be made here \(LSPQ_BOX=off\))? \(lspq trust .* lets it run\)$/m;

let n = 0;
/** A new folder holding `files`; `git: true` makes it a repository with everything committed. */
function project(files: Record<string, string>, options: { git?: boolean } = {}): { dir: string; mark: string } {
  const dir = join(base, `p${++n}`);
  mkdirSync(dir, { recursive: true });
  const mark = join(dir, 'MARK');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text.replaceAll('@MARK@', mark));
  }
  if (options.git) {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hostile');
  }
  return { dir, mark };
}

const evilLspJson = () =>
  JSON.stringify({
    evil: {
      command: 'sh',
      args: ['-c', `touch '@MARK@'; exec '${tsls}' --stdio`],
      extensionToLanguage: { '.ts': 'typescript' },
    },
  });

describe.each([
  ['an empty .git folder', (dir: string) => mkdirSync(join(dir, '.git'))],
  ['a 0-byte .git file', (dir: string) => writeFileSync(join(dir, '.git'), '')],
])('%s is no checkout git vouches for', (_name, makeGit) => {
  test('its .lsp.json server does not run; the user’s server answers; trusting it runs it', async () => {
    const { dir, mark } = project({ 'a.ts': TS, '.lsp.json': evilLspJson() });
    makeGit(dir);
    const r = await lspq.run(['def', 'a.ts:2:x'], { cwd: dir });
    expect({ stdout: r.stdout, exit: r.exit, marked: existsSync(mark) }).toEqual({
      stdout: 'a.ts:1:14: export const x = 1;\n',
      exit: 0,
      marked: false,
    });
    expect(r.stderr).toMatch(LEFT_OUT);
    const explained = await lspq.json<{ wouldRun: { what: string; files: string[] }[] }>(['trust', '--explain'], {
      cwd: dir,
    });
    expect(explained.wouldRun[0]).toEqual({ what: 'the servers and settings of its .lsp.json', files: ['.lsp.json'] });
    expect((await lspq.run(['trust'], { cwd: dir })).exit).toBe(0);
    const trusted = await lspq.run(['def', 'a.ts:2:x'], { cwd: dir });
    expect([trusted.stdout, trusted.exit, existsSync(mark)]).toEqual(['a.ts:1:14: export const x = 1;\n', 0, true]);
    await lspq.run(['trust', '--revoke'], { cwd: dir });
  });
});

test('a committed node_modules/typescript: typescript-language-server runs the user’s TypeScript until trusted', async () => {
  const { dir, mark } = project(
    {
      'a.ts': TS,
      'tsconfig.json': '{}\n',
      'node_modules/typescript/package.json': '{"name":"typescript","version":"5.9.3"}\n',
      'node_modules/typescript/lib/tsserver.js': `require('node:fs').writeFileSync('@MARK@', '');\n`,
    },
    { git: true },
  );
  const asked = ['def', 'a.ts:2:x', '--server', 'typescript-language-server'];
  for (let i = 0; i < 2; i++) {
    const r = await lspq.run(asked, { cwd: dir });
    expect({ stdout: r.stdout, exit: r.exit, marked: existsSync(mark) }).toEqual({
      stdout: 'a.ts:1:14: export const x = 1;\n',
      exit: 0,
      marked: false,
    });
    expect(r.stderr).toContain(
      'left out its own TypeScript, which typescript-language-server would run with the plugins its tsconfig names (node_modules/typescript/lib/tsserver.js)',
    );
  }
  const explained = await lspq.run(['trust', '--explain'], { cwd: dir });
  expect(explained.stdout).toContain(
    'its own TypeScript, which typescript-language-server would run with the plugins its tsconfig names\n    node_modules/typescript/lib/tsserver.js\n',
  );
  await lspq.run(['trust'], { cwd: dir });
  await lspq.run(asked, { cwd: dir });
  expect(existsSync(mark)).toBe(true); // trusted: the workspace's TypeScript, the version the project pins
  await lspq.run(['trust', '--revoke'], { cwd: dir });
});

describe('a Rust build script', () => {
  const buildRs = `fn main() { std::fs::write("@MARK@", "").unwrap(); }\n`;
  const made = (() => {
    const { dir, mark } = project({ 'build.rs': buildRs }, {});
    cpSync(join(FIXTURES, 'rust-diag'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'Cargo.toml'),
      readFileSync(join(dir, 'Cargo.toml'), 'utf8').replace('[package]', '[package]\nbuild = "build.rs"'),
    );
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hostile');
    return { dir, mark };
  })();

  test('untrusted: rust-analyzer answers def and refs with nothing built; diag says cargo check needs trust (exit 3)', async () => {
    const { dir, mark } = made;
    const def = await lspq.run(['def', 'src/main.rs:5:twice', '--timeout', '120'], { cwd: dir });
    expect([def.stdout, def.exit]).toEqual(['src/clean.rs:1:8: pub fn twice(n: i32) -> i32 {\n', 0]);
    const refs = await lspq.run(['refs', 'src/clean.rs:1:twice'], { cwd: dir });
    expect([refs.stdout, refs.exit]).toEqual([
      'src/main.rs:5:27: println!("{}", clean::twice(broken::size("x")));  (in main)\n',
      0,
    ]);
    const diag = await lspq.run(['diag', 'src/broken.rs', '--timeout', '120'], { cwd: dir });
    expect(diag.exit).toBe(3);
    expect(diag.stderr).toContain(
      "diagnostics are incomplete: rust-analyzer left out cargo check's (it builds the crate and runs its build scripts) (lspq trust lets it run)",
    );
    expect(existsSync(mark)).toBe(false);
    // rust-analyzer's scip command runs build scripts whatever it is told: lspq index leaves it out.
    const indexed = await lspq.run(['index', '--timeout', '120'], { cwd: dir });
    expect([indexed.exit, existsSync(mark)]).toEqual([3, false]);
    expect(indexed.stderr).toContain(
      "left out rust-analyzer (its scip command runs the crate's build scripts and proc macros whatever it is told)",
    );
    const explained = await lspq.json<{ wouldRun: { what: string; files: string[] }[] }>(['trust', '--explain'], {
      cwd: dir,
    });
    expect(explained.wouldRun.map((w) => w.what)).toEqual([
      "rust-analyzer: build scripts (build.rs), proc macros and cargo check, which compile and run the repository's code",
    ]);
  });

  test('trusted: the build script runs, and diag has cargo check’s errors', async () => {
    const { dir, mark } = made;
    await lspq.run(['trust'], { cwd: dir });
    const diag = await lspq.run(['diag', 'src/broken.rs', '--timeout', '120'], { cwd: dir });
    expect(diag.stdout).toContain('src/broken.rs:1:24: error: mismatched types');
    expect(diag.stdout).toContain('[rustc E0425]');
    expect([diag.exit, existsSync(mark)]).toEqual([1, true]);
    // Trusting replaced the untrusted rust-analyzer of this root: one runs, not two.
    const status = await lspq.json<{ servers: { id: string; root: string }[] }>(['daemon', 'status']);
    expect(status.servers.filter((s) => s.id === 'rust-analyzer' && s.root === dir).length).toBe(1);
    await lspq.run(['trust', '--revoke'], { cwd: dir });
  });

  test('a committed .cargo/config.toml (it can name the compiler cargo runs): rust-analyzer is left out until trusted', async () => {
    const { dir } = project({ '.cargo/config.toml': '[build]\nrustc-wrapper = "./wrap.sh"\n' });
    cpSync(join(FIXTURES, 'rust-shapes'), dir, { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hostile');
    const r = await lspq.run(['def', 'src/main.rs:13:total_area'], { cwd: dir });
    expect(r.exit).toBe(3);
    expect(r.stderr).toContain(
      `rust-analyzer would run the workspace's own code for ${join(dir, 'src/main.rs')}, and the workspace is not trusted; 'lspq trust --explain' lists what trusting lets run, 'lspq trust' allows it`,
    );
    expect(r.stderr).toContain('left out rust-analyzer (its .cargo/config.toml can run programs)');
  });

  test('the same .cargo/config.toml above a crate in a sub-folder: cargo reads it there too', async () => {
    const { dir } = project({ '.cargo/config.toml': '[build]\nrustc-wrapper = "./wrap.sh"\n' });
    cpSync(join(FIXTURES, 'rust-shapes'), join(dir, 'crates', 'shapes'), { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hostile');
    const r = await lspq.run(['def', 'crates/shapes/src/main.rs:13:total_area'], { cwd: dir });
    expect(r.exit).toBe(3);
    expect(r.stderr).toContain('left out rust-analyzer (its ../../.cargo/config.toml can run programs)');
  });
});

test('an ESLint flat config is JavaScript: untrusted, ESLint is left out and TypeScript answers diag', async () => {
  const { dir, mark } = project(
    {
      'a.ts': 'export const x: number = "one";\n',
      'tsconfig.json': '{}\n',
      'package.json': '{"name":"p","type":"module"}\n',
      'eslint.config.js': `import { writeFileSync } from 'node:fs';\nwriteFileSync('@MARK@', '');\nexport default [];\n`,
    },
    { git: true },
  );
  const r = await lspq.run(['diag', 'a.ts', '--json'], { cwd: dir });
  const answer = JSON.parse(r.stdout) as {
    diagnostics: { line: number; column: number; source: string }[];
    servers: { server: string }[];
  };
  expect(answer.diagnostics.map((d) => `${d.line}:${d.column}:${d.source}`)).toEqual(['1:14:typescript']);
  expect(answer.servers.map((s) => s.server)).toEqual(['typescript-language-server']);
  expect(r.stderr).toContain(
    "left out vscode-eslint-language-server (the project's eslint and the plugins its configuration loads, and its eslint.config.js)",
  );
  // A checker the project configures, left out: the answer is not whole (exit 3), whatever else it found.
  expect(r.stderr).toContain(
    'diagnostics are incomplete: vscode-eslint-language-server left out the checks eslint.config.js asks for (its configuration is code) (lspq trust lets it run)',
  );
  expect([r.exit, existsSync(mark)]).toEqual([3, false]);
  // The user chose the servers: that is the whole answer asked for.
  const chosen = await lspq.run(['diag', 'a.ts', '--server', 'typescript-language-server'], { cwd: dir });
  expect([chosen.exit, existsSync(mark)]).toEqual([1, false]);
});

test('an index that came with a clone is the repository’s word: not read until trusted; one built here is', async () => {
  const { dir } = project({ 'a.ts': TS, 'tsconfig.json': '{}\n', 'package.json': '{"name":"p"}\n' }, { git: true });
  expect((await lspq.run(['index', '--timeout', '120'], { cwd: dir })).exit).toBe(0);
  // Built here by lspq, untrusted: the user's own, recorded by its content.
  const built = await lspq.run(['refs', 'a.ts:1:x', '--index-only'], { cwd: dir });
  expect([built.stdout, built.stderr, built.exit]).toEqual(['a.ts:2:18: export const y = x + 1;\n', '', 0]);
  // Committed, then cloned: the clone's index is the repository's, whatever lspq once built.
  rmSync(join(dir, '.lspq', '.gitignore'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'ship an index');
  const clone = `${dir}-clone`;
  git(base, 'clone', '-q', dir, clone);
  const shipped = await lspq.run(['refs', 'a.ts:1:x', '--index-only'], { cwd: clone });
  expect(shipped.exit).toBe(3);
  expect(shipped.stderr).toContain(
    `lspq: warning: left out an index that came with the workspace (.lspq/index.scip): the workspace is not trusted (lspq trust ${clone} lets it run)\n`,
  );
  const explained = await lspq.json<{ wouldRun: { what: string; files: string[] }[] }>(['trust', '--explain'], {
    cwd: clone,
  });
  expect(explained.wouldRun).toContainEqual({
    what: 'an index that came with the workspace',
    files: ['.lspq/index.scip'],
  });
  await lspq.run(['trust'], { cwd: clone });
  const trusted = await lspq.run(['refs', 'a.ts:1:x', '--index-only'], { cwd: clone });
  expect([trusted.stdout, trusted.exit]).toEqual(['a.ts:2:18: export const y = x + 1;\n', 0]);
  await lspq.run(['trust', '--revoke'], { cwd: clone });
});

test('an index built outside any git checkout is the user’s own: answered, not refused', async () => {
  const { dir } = project({ 'a.ts': TS, 'tsconfig.json': '{}\n', 'package.json': '{"name":"p"}\n' });
  expect((await lspq.run(['index', '--timeout', '120'], { cwd: dir })).exit).toBe(0);
  const r = await lspq.run(['refs', 'a.ts:1:x', '--index-only'], { cwd: dir });
  expect([r.stdout, r.stderr, r.exit]).toEqual(['a.ts:2:18: export const y = x + 1;\n', '', 0]);
});

test('clangd loads no compiler plugin that compile_commands.json names, trusted or not', async () => {
  const { dir, mark } = project({
    'evil.c': `#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { FILE *f = fopen("@MARK@", "w"); if (f) fclose(f); }\n`,
    'main.c': 'int twice(int n) { return n * 2; }\nint main(void) { return twice(1); }\n',
  });
  const built = Bun.spawnSync(['cc', '-shared', '-fPIC', '-o', 'evil.so', 'evil.c'], { cwd: dir, stderr: 'pipe' });
  expect(built.exitCode).toBe(0);
  const plugin = join(dir, 'evil.so');
  const args = [
    'cc',
    `-fplugin=${plugin}`,
    '-Xclang',
    '-load',
    '-Xclang',
    plugin,
    `-fpass-plugin=${plugin}`,
    '-c',
    'main.c',
  ];
  writeFileSync(
    join(dir, 'compile_commands.json'),
    JSON.stringify([{ directory: dir, file: 'main.c', arguments: args }]),
  );
  for (const env of [{}, { LSPQ_TRUST: 'all' }]) {
    const def = await lspq.run(['def', 'main.c:2:twice'], { cwd: dir, env });
    expect([def.stdout, def.exit]).toEqual(['main.c:1:5: int twice(int n) { return n * 2; }\n', 0]);
    const diag = await lspq.run(['diag', 'main.c'], { cwd: dir, env });
    expect([diag.stdout, diag.exit, existsSync(mark)]).toEqual(['', 0, false]);
  }
});

describe('an edit that reaches outside the root through a link', () => {
  const outside = join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  const elsewhere = join(outside, 'b.ts');
  const B = "import { x } from './a';\nexport const z = x * 2;\n";
  const made = project(
    {
      'a.ts': TS,
      'tsconfig.json': '{"compilerOptions":{"preserveSymlinks":true}}\n',
      'package.json': '{"name":"p"}\n',
    },
    { git: true },
  );
  writeFileSync(elsewhere, B);
  symlinkSync(elsewhere, join(made.dir, 'b.ts'));

  test('rename is refused whole, naming the file and where it really is; nothing is written', async () => {
    const { dir } = made;
    const r = await lspq.run(['rename', 'a.ts:1:x', 'renamed'], { cwd: dir, env: { LSPQ_TRUST: 'all' } });
    expect(r.exit).toBe(2);
    expect(r.stderr).toBe(
      `lspq: the edit would change ${join(dir, 'b.ts')} (it is ${elsewhere}, through a symbolic link), outside the workspace root ${dir}; nothing was written (add --allow-outside to allow it)\n`,
    );
    expect([readFileSync(join(dir, 'a.ts'), 'utf8'), readFileSync(elsewhere, 'utf8')]).toEqual([TS, B]);
  });

  test('with --allow-outside the linked file is written, and the link stays a link', async () => {
    const { dir } = made;
    const r = await lspq.run(['rename', 'a.ts:1:x', 'renamed', '--allow-outside'], {
      cwd: dir,
      env: { LSPQ_TRUST: 'all' },
    });
    expect(r.exit).toBe(0);
    expect(readFileSync(elsewhere, 'utf8')).toBe("import { renamed } from './a';\nexport const z = renamed * 2;\n");
    expect(realpathSync(join(dir, 'b.ts'))).toBe(elsewhere);
  });
});

describe('edits that would land outside through a link, for every command that writes', () => {
  const outside = join(base, 'outside-edits');
  mkdirSync(outside, { recursive: true });
  const made = project(
    {
      'a.ts': TS,
      'b.ts': "import { x } from './a';\nexport const z = x * 2;\n",
      'tsconfig.json': '{}\n',
      'package.json': '{"name":"p"}\n',
    },
    { git: true },
  );
  symlinkSync(outside, join(made.dir, 'linkdir'));
  const ugly = 'export const   o=1\n';
  writeFileSync(join(outside, 'o.ts'), ugly);
  symlinkSync(join(outside, 'o.ts'), join(made.dir, 'link.ts'));
  const trusted = { env: { LSPQ_TRUST: 'all' } };

  test('mv into a folder not made yet under a linked folder: judged by the folder that exists; nothing moved', async () => {
    const { dir } = made;
    for (const to of ['linkdir/new/a.ts', 'linkdir/a.ts', 'linkdir/new/deeper/a.ts']) {
      const r = await lspq.run(['mv', 'a.ts', to], { cwd: dir, ...trusted });
      expect([to, r.exit, r.stderr]).toEqual([
        to,
        2,
        `lspq: the edit would change ${join(dir, to)} (it is ${join(outside, to.slice('linkdir/'.length))}, through a symbolic link), outside the workspace root ${dir}; nothing was written (add --allow-outside to allow it)\n`,
      ]);
    }
    expect([existsSync(join(dir, 'a.ts')), readdirSync(outside)]).toEqual([true, ['o.ts']]);
  });

  test('fmt --write of a link to a file outside: refused, the file as it was; --allow-outside writes it', async () => {
    const { dir } = made;
    const r = await lspq.run(['fmt', '--write', 'link.ts'], { cwd: dir, ...trusted });
    expect([r.exit, r.stderr, readFileSync(join(outside, 'o.ts'), 'utf8')]).toEqual([
      2,
      `lspq: the edit would change ${join(outside, 'o.ts')}, outside the workspace root ${dir}; nothing was written (add --allow-outside to allow it)\n`,
      ugly,
    ]);
    const allowed = await lspq.run(['fmt', '--write', 'link.ts', '--allow-outside'], { cwd: dir, ...trusted });
    expect([allowed.exit, readFileSync(join(outside, 'o.ts'), 'utf8')]).toEqual([0, 'export const o = 1\n']);
    expect(realpathSync(join(dir, 'link.ts'))).toBe(join(outside, 'o.ts'));
  });
});

describe('gopls untrusted runs with GOTOOLCHAIN=local: trust --explain names what trusting lets choose the toolchain', () => {
  const what = 'gopls: the Go toolchain its go.mod or go.work names in a toolchain line';
  const head = (dir: string) => `not contained: LSPQ_BOX=off; trusting it would let these run (${dir}):\n`;

  test('the go.mod whose toolchain line go would run', async () => {
    const { dir } = project(
      { 'go.mod': 'module example.com/p\n\ngo 1.22\n\ntoolchain go1.999.0\n', 'p.go': 'package p\n' },
      { git: true },
    );
    expect(await lspq.run(['trust', '--explain'], { cwd: dir })).toEqual({
      stdout: `${head(dir)}  ${what}\n    go.mod\n`,
      stderr: '',
      exit: 0,
    });
  });

  test('no go.mod: the folder gopls takes as its root, said as a folder', async () => {
    const { dir } = project({ 'main.go': 'package main\n' }, { git: true });
    expect(await lspq.run(['trust', '--explain'], { cwd: dir })).toEqual({
      stdout: `${head(dir)}  ${what}\n    ./\n`,
      stderr: '',
      exit: 0,
    });
  });
});

test('a stray rejection in the daemon is logged, and the daemon goes on answering', async () => {
  const own = new Lspq();
  const { dir } = project({ 'a.ts': TS, 'tsconfig.json': '{}\n' });
  try {
    for (let i = 0; i < 2; i++) {
      const r = await own.run(['def', 'a.ts:2:x'], { cwd: dir, env: { LSPQ_TEST_STRAY_REJECTION: '1' } });
      expect([r.stdout, r.exit]).toEqual(['a.ts:1:14: export const x = 1;\n', 0]);
    }
    const logs = await own.run(['daemon', 'logs']);
    expect(logs.stdout).toContain(
      'a rejection no handler caught (the daemon goes on): Error: a stray rejection (test)',
    );
  } finally {
    expect(await own.stop()).toEqual([]);
  }
});
