/** Where lspq looks: the daemon's files beside its socket, the user's tool folders, a worktree's main checkout. */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPythonEnv, inMainCheckout, toolFolders } from '../../src/lsp/servers/install-places';
import { stateFile } from '../../src/common/socket';

const base = mkdtempSync(join(tmpdir(), 'lspq-places-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

test("a daemon's files are named after its socket: two sockets in one folder are two daemons", () => {
  expect(stateFile('/run/lspq/daemon.sock', 'daemon.lock')).toBe('/run/lspq/daemon.lock');
  expect(stateFile('/tmp/x/a.sock', 'daemon.lock')).toBe('/tmp/x/a.lock');
  expect(stateFile('/tmp/x/b.sock', 'daemon.log')).toBe('/tmp/x/b.log');
});

test('tool folders: GOBIN or GOPATH/bin, CARGO_HOME, ~/.local/bin, Mason; LSPQ_TOOL_DIRS replaces them', () => {
  expect(toolFolders({ HOME: '/h' })).toEqual([
    '/h/go/bin',
    '/h/.cargo/bin',
    '/h/.local/bin',
    '/h/.local/share/nvim/mason/bin',
  ]);
  expect(toolFolders({ HOME: '/h', GOBIN: '/g', CARGO_HOME: '/c', XDG_DATA_HOME: '/d' })).toEqual([
    '/g',
    '/c/bin',
    '/h/.local/bin',
    '/d/nvim/mason/bin',
  ]);
  expect(toolFolders({ HOME: '/h', GOPATH: '/p1:/p2' })[0]).toBe('/p1/bin');
  expect(toolFolders({ HOME: '/h', LSPQ_TOOL_DIRS: '' })).toEqual([]);
  expect(toolFolders({ HOME: '/h', LSPQ_TOOL_DIRS: '/a:/b' })).toEqual(['/a', '/b']);
});

test("a worktree's folders map to the main checkout's; a submodule's .git file does not", () => {
  mkdirSync(join(base, 'main', '.git', 'worktrees', 'wt'), { recursive: true });
  mkdirSync(join(base, 'wt', 'pkg'), { recursive: true });
  writeFileSync(join(base, 'wt', '.git'), `gitdir: ${join(base, 'main', '.git', 'worktrees', 'wt')}\n`);
  expect(inMainCheckout(join(base, 'wt', 'pkg'))).toBe(join(base, 'main', 'pkg'));
  mkdirSync(join(base, 'super', '.git', 'modules', 'sub'), { recursive: true });
  mkdirSync(join(base, 'super', 'sub'), { recursive: true });
  writeFileSync(join(base, 'super', 'sub', '.git'), 'gitdir: ../.git/modules/sub\n');
  expect(inMainCheckout(join(base, 'super', 'sub'))).toBeUndefined();
});

test('the Python environment: VIRTUAL_ENV, else .venv or venv at or above the file up to the root', () => {
  const root = join(base, 'py');
  mkdirSync(join(root, 'pkg', 'sub'), { recursive: true });
  mkdirSync(join(root, 'venv', 'bin'), { recursive: true });
  writeFileSync(join(root, 'venv', 'pyvenv.cfg'), '');
  expect(findPythonEnv(join(root, 'pkg', 'sub'), root, {})).toEqual({
    prefix: join(root, 'venv'),
    rule: "the project's venv/",
  });
  expect(findPythonEnv(join(root, 'pkg'), join(root, 'pkg'), {})).toBeUndefined();
  expect(findPythonEnv(root, root, { VIRTUAL_ENV: '/elsewhere' })).toEqual({
    prefix: '/elsewhere',
    rule: '$VIRTUAL_ENV',
  });
});
