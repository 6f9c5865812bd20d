/**
 * What a project's folders are, one rule for every walk (src/project/):
 * build output is what git ignores, not a folder's name. A workspace
 * package kept under build/ and tracked by git is part of the workspace
 * (it used to drop out of cross-package refs with exit 0, because the walk
 * for projects skipped every folder named build); a copy of a package in a
 * dist/ that git ignores is not. svelte-french-toast 1.2.0 as npm ships it
 * keeps its sources in a tracked dist/ (symbols -w, def --symbol and diag
 * --all said it held no source file, exit 3). A `.venv` that git does not
 * ignore is never sources (diag --all diagnosed pip's 700 files and timed
 * out).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, Lspq, REPO, toolsPath } from '../helpers/lspq';
import { typescriptOnPath } from '../helpers/workspaces';

const made: string[] = [];
const lspq = new Lspq();
const tscDir = typescriptOnPath();
made.push(tscDir);
const PATH = `${tscDir}:${toolsPath()}`;

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const TSCONFIG = `${JSON.stringify({
  compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true, types: [] },
  include: ['src'],
})}\n`;
const USES = "import { shared } from '@x/a';\n\nexport const used = shared(1);\n";

/** An npm workspace: packages/a declares `shared`; build/tools (tracked) and dist/copy (ignored) use it. */
function workspace(): string {
  // Outside the tests' own checkout, whose tsconfig.json a TypeScript server would take as an ancestor project.
  const root = mkdtempSync(join(tmpdir(), 'lspq-build-folder-'));
  made.push(root);
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*', 'build/*'] })}\n`,
    '.gitignore': 'node_modules/\ndist/\n',
    'packages/a/package.json': `${JSON.stringify({ name: '@x/a', version: '1.0.0', types: 'src/index.ts' })}\n`,
    'packages/a/tsconfig.json': TSCONFIG,
    'packages/a/src/index.ts': 'export function shared(n: number): number {\n  return n + 1;\n}\n',
    'build/tools/package.json': `${JSON.stringify({ name: '@x/tools', version: '1.0.0' })}\n`,
    'build/tools/tsconfig.json': TSCONFIG,
    'build/tools/src/use.ts': USES,
    'dist/copy/package.json': `${JSON.stringify({ name: '@x/copy', version: '1.0.0' })}\n`,
    'dist/copy/tsconfig.json': TSCONFIG,
    'dist/copy/src/use.ts': USES,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, 'node_modules', '@x'), { recursive: true });
  symlinkSync('../../packages/a', join(root, 'node_modules', '@x', 'a'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'workspace');
  return root;
}

for (const server of ['typescript', 'typescript-language-server']) {
  describe(`${server}: a package under build/ that git tracks`, () => {
    const root = workspace();
    const a = join(root, 'packages', 'a');
    const refs = () => lspq.run(['refs', 'src/index.ts:1:shared', '--server', server], { cwd: a, env: { PATH } });
    const expected = [
      `${root}/build/tools/src/use.ts:1:10: import { shared } from '@x/a';`,
      `${root}/build/tools/src/use.ts:3:21: export const used = shared(1);  (in used)`,
    ].join('\n');

    test("refs, cold: its uses are found; the ignored dist/ copy's are not", async () => {
      const r = await refs();
      expect([r.stdout, r.exit]).toEqual([`${expected}\n`, 0]);
    });

    test('asked again, warm: the same', async () => {
      const r = await refs();
      expect([r.stdout, r.exit]).toEqual([`${expected}\n`, 0]);
    });
  });
}

describe('svelte-french-toast 1.2.0: its sources in a dist/ that git tracks', () => {
  const root = mkdtempSync(join(tmpdir(), 'lspq-french-toast-'));
  made.push(root);
  cpSync(join(REPO, '.tools', 'projects', 'svelte-french-toast-1.2.0'), root, { recursive: true });
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'svelte-french-toast');
  const ts = ['--server', 'typescript-language-server'];
  const run = (args: string[]) => lspq.run([...args, ...ts], { cwd: root, env: { PATH } });

  test('symbols -w: every declaration named toast, in the files no tsconfig gathers; asked again, the same', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await lspq.json<{ symbols: { name: string; path: string; line: number; column: number }[] }>(
        ['symbols', '-w', 'toast', ...ts],
        { cwd: root, env: { PATH } },
      );
      const named = r.symbols.filter((x) => x.name === 'toast').map((x) => `${x.path}:${x.line}:${x.column}`);
      expect(named.sort()).toEqual([
        'dist/core/toast.js:18:11',
        'dist/core/toast.js:22:7',
        'dist/core/use-toaster.js:1:8',
        'dist/index.js:11:10',
        'dist/index.js:1:8',
      ]);
    }
  });

  test('def --symbol: one name found in dist/core; a name of several, each offered', async () => {
    expect(await run(['def', '--symbol', 'createToast'])).toEqual({
      stdout: "dist/core/toast.js:4:7: const createToast = (message, type = 'blank', opts) => ({\n",
      stderr: '',
      exit: 0,
    });
    const several = await run(['def', '--symbol', 'toast']);
    expect([several.exit, several.stderr]).toEqual([2, expect.stringContaining('dist/core/toast.js:22:toast')]);
  });

  test('diag --all: the JavaScript of dist/ (no TypeScript there: its declarations are not of a build of its own); one file named, the same', async () => {
    const all = await lspq.json<{ files: string[]; total: number }>(['diag', '--all', ...ts], {
      cwd: root,
      env: { PATH },
    });
    expect([all.files, all.total]).toEqual([
      [
        'dist/core/store.js',
        'dist/core/toast.js',
        'dist/core/types.js',
        'dist/core/use-toaster.js',
        'dist/core/utils.js',
        'dist/index.js',
      ],
      0,
    ]);
    expect(await run(['diag', 'dist/core/toast.js'])).toEqual({
      stdout: '',
      stderr: 'lspq: no problems in 1 file\n',
      exit: 0,
    });
  });
});

describe('a .venv that git does not ignore', () => {
  const root = mkdtempSync(join(tmpdir(), 'lspq-venv-'));
  made.push(root);
  writeFileSync(join(root, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
  writeFileSync(join(root, 'app.py'), 'import os\n\n\ndef f() -> int:\n    return 1\n');
  // pip and its 700 files, as `python -m venv` makes them; no .gitignore names the folder.
  const venv = Bun.spawnSync(['python3', '-m', 'venv', '.venv'], { cwd: root, stderr: 'pipe' });
  if (venv.exitCode !== 0) throw new Error(`python3 -m venv failed: ${venv.stderr}`);
  git(root, 'init', '-q');
  // Committed: the changed files are app.py and the environment's.
  git(root, 'add', 'pyproject.toml');
  git(root, 'commit', '-qm', 'project');
  const FINDING = 'app.py:1:8: warning: `os` imported but unused help: Remove unused import: `os` [Ruff F401]\n';

  for (const mode of [['--all'], []])
    test(`diag ${mode.join(' ') || '(the changed files)'}: exactly the project's finding, nothing of the environment`, async () => {
      const r = await lspq.run(['diag', ...mode, '--fail-on', 'warning', '--server', 'ruff', '--json'], {
        cwd: root,
        env: { PATH },
      });
      const answer = JSON.parse(r.stdout) as { files: string[]; diagnostics: { path: string }[] };
      expect([answer.files, answer.diagnostics.map((d) => d.path), r.exit]).toEqual([['app.py'], ['app.py'], 1]);
      const lines = await lspq.run(['diag', ...mode, '--fail-on', 'warning', '--server', 'ruff'], {
        cwd: root,
        env: { PATH },
      });
      expect([lines.stdout, lines.exit]).toEqual([FINDING, 1]);
    });
});
