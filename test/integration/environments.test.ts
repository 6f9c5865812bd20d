/**
 * Projects as their owners set them up: a Python project whose packages
 * and one of its servers live in its own .venv (never activated), the same
 * with VIRTUAL_ENV naming another environment, a git worktree that has no
 * .venv of its own, and a server found in the user's tool folder while
 * PATH lacks it. PATH is fixed to exactly the runtimes and servers each
 * test needs, so a server found anywhere else on this machine cannot
 * answer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { exactPath, git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const base = (() => {
  mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
  return mkdtempSync(join(REPO, 'test', '.scratch', 'envs-'));
})();
// pyright (a Node server) and the interpreters; no ruff, no pylsp: those come from the environments.
const bin = exactPath(['node', 'python3', 'pyright-langserver', 'git']);
const PATH = bin;
const WHEELS = join(REPO, '.tools', 'wheels');

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
});

/** A virtual environment at `dir` holding `packages` from the wheels the test setup downloaded. */
function venv(dir: string, packages: string[]): void {
  const made = spawnSync('python3', ['-m', 'venv', '--without-pip', dir], { encoding: 'utf8' });
  expect(made.stderr).toBe('');
  if (!packages.length) return;
  const pip = join(REPO, '.tools', 'venv', 'bin', 'pip');
  const args = ['--python', join(dir, 'bin', 'python'), 'install', '-q', '--no-index', '--find-links', WHEELS];
  const installed = spawnSync(pip, [...args, ...packages], { encoding: 'utf8' });
  expect(installed.status).toBe(0);
}

const sitePackages = (prefix: string) => {
  const lib = join(prefix, 'lib');
  return join(lib, readdirSync(lib).find((d) => d.startsWith('python'))!, 'site-packages');
};

const project = join(base, 'app');
const MAIN = 'import six\n\nprint(six.moves.range(3))\nprint(six.PY3)\n';

beforeAll(() => {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'pyproject.toml'), '[project]\nname = "app"\nversion = "0"\n');
  writeFileSync(join(project, 'main.py'), MAIN);
  writeFileSync(join(project, '.gitignore'), '.venv/\n');
  venv(join(project, '.venv'), ['six==1.17.0', 'ruff==0.17.6']);
  git(project, 'init', '-q');
  git(project, 'add', '.');
  git(project, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'app');
});

describe("a project's own .venv, never activated", () => {
  test('servers --for: pyright runs in the .venv, ruff is found only there', async () => {
    const r = await lspq.json<{ servers: { id: string; foundBy: string; path: string; python?: string }[] }>(
      ['servers', '--for', 'main.py'],
      { cwd: project, env: { PATH } },
    );
    const byId = Object.fromEntries(r.servers.map((s) => [s.id, s]));
    expect(byId.pyright?.foundBy).toBe('PATH');
    expect(byId.pyright?.python).toBe(join(project, '.venv'));
    expect(byId.ruff?.path).toBe(join(project, '.venv', 'bin', 'ruff'));
    expect(byId.ruff?.foundBy).toBe("the Python environment (the project's .venv/)");
  });

  test('the import resolves: no diagnostic, def and hover land in the installed package', async () => {
    expect(await lspq.run(['diag', 'main.py', '--server', 'pyright'], { cwd: project, env: { PATH } })).toEqual({
      exit: 0,
      stdout: '',
      stderr: 'lspq: no problems in 1 file\n',
    });
    const def = await lspq.run(['def', 'main.py:4:PY3', '--server', 'pyright'], { cwd: project, env: { PATH } });
    expect(def.exit).toBe(0);
    const six = join(sitePackages(join(project, '.venv')), 'six.py');
    expect(def.stdout).toBe(`${relative(project, six)}:37:1: PY3 = sys.version_info[0] == 3\n`);
    // Asked again, warm: the same answer.
    expect(await lspq.run(['def', 'main.py:4:PY3', '--server', 'pyright'], { cwd: project, env: { PATH } })).toEqual(
      def,
    );
  });

  test('ruff from the .venv answers diag (the F401 of an unused import)', async () => {
    writeFileSync(join(project, 'unused.py'), 'import os\n');
    expect(await lspq.run(['diag', 'unused.py', '--server', 'ruff'], { cwd: project, env: { PATH } })).toEqual({
      exit: 0,
      stdout: 'unused.py:1:8: warning: `os` imported but unused help: Remove unused import: `os` [Ruff F401]\n',
      stderr: 'lspq: 1 warning in 1 file\n',
    });
    // The workspace's answer is the files' answers: diag --all asks every server diag FILE asks, ruff beside pyright.
    const lines = (out: string) => out.split('\n').filter((l) => l.startsWith('unused.py:'));
    const one = await lspq.run(['diag', 'unused.py'], { cwd: project, env: { PATH } });
    const all = await lspq.run(['diag', '--all'], { cwd: project, env: { PATH } });
    expect(lines(one.stdout)).toEqual([
      'unused.py:1:8: warning: `os` imported but unused help: Remove unused import: `os` [Ruff F401]',
    ]);
    expect(lines(all.stdout)).toEqual(lines(one.stdout));
    rmSync(join(project, 'unused.py'));
  });
});

describe('VIRTUAL_ENV naming another environment', () => {
  test('it wins over the .venv: the package is not there, and a second pyright runs for it', async () => {
    const other = join(base, 'other-env');
    venv(other, []);
    const env = { PATH, VIRTUAL_ENV: other };
    const diag = await lspq.run(['diag', 'main.py', '--server', 'pyright'], { cwd: project, env });
    expect(diag.stdout).toBe(
      'main.py:1:8: warning: Import "six" could not be resolved from source [Pyright reportMissingModuleSource]\n',
    );
    const r = await lspq.json<{ servers: { id: string; python?: string }[] }>(['servers', '--for', 'main.py'], {
      cwd: project,
      env,
    });
    expect(r.servers.find((s) => s.id === 'pyright')?.python).toBe(other);
    const status = await lspq.json<{ servers: { id: string; root: string }[] }>(['daemon', 'status']);
    expect(status.servers.filter((s) => s.id === 'pyright' && s.root === project)).toHaveLength(2);
  });
});

describe('a git worktree without a .venv of its own', () => {
  test("the main checkout's .venv counts", async () => {
    const tree = join(base, 'app-wt');
    git(project, 'worktree', 'add', '-q', tree);
    const r = await lspq.json<{ servers: { id: string; foundBy: string; python?: string }[] }>(
      ['servers', '--for', 'main.py'],
      { cwd: tree, env: { PATH } },
    );
    const ruff = r.servers.find((s) => s.id === 'ruff');
    expect(ruff?.foundBy).toBe("the Python environment (the main checkout's .venv/)");
    expect(r.servers.find((s) => s.id === 'pyright')?.python).toBe(join(project, '.venv'));
    const def = await lspq.run(['def', 'main.py:4:PY3', '--server', 'pyright'], { cwd: tree, env: { PATH } });
    expect(def.stdout).toBe(
      `${join(sitePackages(join(project, '.venv')), 'six.py')}:37:1: PY3 = sys.version_info[0] == 3\n`,
    );
  });
});

describe("the user's tool folders", () => {
  test('a server in ~/.local/bin is found while PATH lacks it, and said so', async () => {
    const home = join(base, 'home');
    const tools = join(home, '.local', 'bin');
    mkdirSync(tools, { recursive: true });
    const server = join(tools, 'lspq-test-server');
    writeFileSync(
      server,
      `#!/bin/sh\nexec "${process.execPath}" "${join(REPO, 'test', 'fakes', 'well-behaved.ts')}" "$@"\n`,
    );
    chmodSync(server, 0o755);
    const dir = join(base, 'fake-project');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.fake'), 'hello a\n');
    const spec = { command: 'lspq-test-server', extensionToLanguage: { '.fake': 'fake' }, rootMarkers: ['.lsp.json'] };
    writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ fake: spec }));
    const env = { PATH, HOME: home, LSPQ_TOOL_DIRS: undefined };
    const r = await lspq.json<{ servers: { id: string; foundBy: string; path: string }[] }>(
      ['servers', '--for', 'a.fake'],
      { cwd: dir, env },
    );
    expect(r.servers).toHaveLength(1);
    expect(r.servers[0]?.path).toBe(server);
    expect(r.servers[0]?.foundBy).toBe(`the tool folder ${tools}`);
    // The tests' own setting: no tool folders, so the same server is missing.
    const without = await lspq.run(['servers', '--for', 'a.fake'], { cwd: dir, env: { PATH, HOME: home } });
    expect(without.exit).toBe(3);
  });
});
