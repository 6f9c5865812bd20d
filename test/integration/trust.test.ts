/**
 * A repository runs no code of its own until its user trusts it. Hostile
 * repositories commit each way of getting lspq to run a program: a
 * `.lsp.json` server (and one that only sets a server's environment), a
 * `node_modules/.bin` server, a `.venv` with a server and an interpreter,
 * a worktree whose main checkout holds one, and a link from a trusted
 * repository into an untrusted one. Each program, run, would leave a mark;
 * before `lspq trust` none is left, the answer comes from the user's own
 * server, and one line says what was left out; after it, everything works.
 * Whatever git says of it: what git does not track (an npm install) waits
 * for trust as well.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, toolsPath } from '../helpers/lspq';

const lspq = new Lspq({ trusting: false });
const base = mkdtempSync(join(tmpdir(), 'lspq-trust-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const TS = 'export const x = 1;\nexport const y = x + 1;\n';
const tsls = Bun.which('typescript-language-server', { PATH: toolsPath() })!;
const pyright = Bun.which('pyright-langserver', { PATH: toolsPath() })!;

let n = 0;
/** A new git repository holding `files` (committed unless `untracked` names them). */
function repo(files: Record<string, string>, untracked: string[] = []): string {
  const dir = join(base, `repo-${++n}`);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
    if (/(^|\/)\.?bin\//.test(path) || path.endsWith('.sh')) chmodSync(join(dir, path), 0o755);
  }
  const ignore = untracked.map((p) => `/${p}\n`).join('');
  if (ignore) writeFileSync(join(dir, '.gitignore'), ignore);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'hostile');
  return dir;
}

/** A server script that leaves `mark` and then runs the real server `real` (so after trust it answers). */
const marking = (mark: string, real: string) => `#!/bin/sh\ntouch '${mark}'\nexec '${real}' --stdio\n`;

const LEFT_OUT =
  /^lspq: warning: left out .*: the workspace is not trusted(, and no box can be made here \(LSPQ_BOX=off\))? \(lspq trust .* lets it run\)$/m;

describe.each([
  [
    'a .lsp.json server',
    (mark: string) => ({
      'a.ts': TS,
      '.lsp.json': JSON.stringify({
        evil: {
          command: 'sh',
          args: ['-c', `touch '${mark}'; exec '${tsls}' --stdio`],
          extensionToLanguage: { '.ts': 'typescript' },
        },
      }),
    }),
  ],
  [
    'a .lsp.json that only sets a server its environment',
    (mark: string) => ({
      'a.ts': TS,
      'evil.cjs': `require('node:fs').writeFileSync('${mark}', '');\n`,
      '.lsp.json': JSON.stringify({
        'typescript-language-server': { env: { NODE_OPTIONS: '--require ./evil.cjs' } },
      }),
    }),
  ],
  [
    'a node_modules/.bin server',
    (mark: string) => ({ 'a.ts': TS, 'node_modules/.bin/typescript-language-server': marking(mark, tsls) }),
  ],
])('%s, committed', (_name, files) => {
  test('runs nothing before lspq trust; the user’s server answers; one line says what was left out; after trust it runs', async () => {
    const mark = join(base, `mark-${++n}`);
    const dir = repo(files(mark));
    const before = await lspq.run(['def', 'a.ts:2:x', '--server', 'typescript-language-server'], { cwd: dir });
    expect(before.stdout).toBe('a.ts:1:14: export const x = 1;\n');
    expect(before.exit).toBe(0);
    expect(before.stderr).toMatch(LEFT_OUT);
    expect(existsSync(mark)).toBe(false);
    // Asked again: still nothing run, and said again.
    expect(
      (await lspq.run(['def', 'a.ts:2:x', '--server', 'typescript-language-server'], { cwd: dir })).stderr,
    ).toMatch(LEFT_OUT);
    expect(existsSync(mark)).toBe(false);
    const trusted = await lspq.run(['trust'], { cwd: dir });
    expect(trusted.exit).toBe(0);
    const after = await lspq.run(['def', 'a.ts:2:x'], { cwd: dir });
    expect([after.exit, after.stdout, after.stderr]).toEqual([0, 'a.ts:1:14: export const x = 1;\n', '']);
    expect(existsSync(mark)).toBe(true);
  });
});

test('a .venv the repository carries: neither its server nor its interpreter runs; the user’s pyright answers', async () => {
  const mark = join(base, `mark-${++n}`);
  const dir = repo({
    'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
    'a.py': 'x = 1\ny = x + 1\n',
    '.venv/pyvenv.cfg': 'home = /usr/bin\n',
    '.venv/bin/pyright-langserver': marking(mark, pyright),
    '.venv/bin/python': `#!/bin/sh\ntouch '${mark}'\nexec python3 "$@"\n`,
  });
  const r = await lspq.run(['def', 'a.py:2:x'], { cwd: dir });
  expect([r.exit, r.stdout]).toEqual([0, 'a.py:1:1: x = 1\n']);
  expect(r.stderr).toMatch(LEFT_OUT);
  expect(existsSync(mark)).toBe(false);
  expect((await lspq.run(['trust'], { cwd: dir })).exit).toBe(0);
  expect((await lspq.run(['def', 'a.py:2:x'], { cwd: dir })).exit).toBe(0);
  expect(existsSync(mark)).toBe(true);
});

test('a worktree: its main checkout’s committed server does not run either', async () => {
  const mark = join(base, `mark-${++n}`);
  const main = repo({ 'a.ts': TS, 'node_modules/.bin/typescript-language-server': marking(mark, tsls) });
  const wt = join(base, `wt-${n}`);
  // A worktree of a branch without node_modules: it looks for servers in the main checkout.
  git(main, 'branch', 'bare');
  git(main, 'worktree', 'add', '-q', wt, 'bare');
  git(wt, 'rm', '-rq', 'node_modules');
  git(wt, 'commit', '-qm', 'bare');
  const r = await lspq.run(['def', 'a.ts:2:x', '--server', 'typescript-language-server'], { cwd: wt });
  expect([r.exit, r.stdout]).toEqual([0, 'a.ts:1:14: export const x = 1;\n']);
  expect(r.stderr).toMatch(LEFT_OUT);
  expect(existsSync(mark)).toBe(false);
});

test('a link from a trusted repository into an untrusted one: what it points to does not run', async () => {
  const mark = join(base, `mark-${++n}`);
  const evil = repo({ 'tls.sh': marking(mark, tsls) });
  const trusted = repo({ 'a.ts': TS });
  mkdirSync(join(trusted, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(evil, 'tls.sh'), join(trusted, 'node_modules', '.bin', 'typescript-language-server'));
  git(trusted, 'add', '-A');
  git(trusted, 'commit', '-qm', 'link');
  expect((await lspq.run(['trust'], { cwd: trusted })).exit).toBe(0);
  const r = await lspq.run(['def', 'a.ts:2:x', '--server', 'typescript-language-server'], { cwd: trusted });
  expect([r.exit, r.stdout]).toEqual([0, 'a.ts:1:14: export const x = 1;\n']);
  expect(r.stderr).toMatch(LEFT_OUT);
  expect(existsSync(mark)).toBe(false);
});

test('what git does not track waits for trust too: an ignored node_modules runs only once trusted', async () => {
  const mark = join(base, `mark-${++n}`);
  const dir = repo({ 'a.ts': TS }, ['node_modules']);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', '.bin', 'typescript-language-server'), marking(mark, tsls));
  chmodSync(join(dir, 'node_modules', '.bin', 'typescript-language-server'), 0o755);
  const asked = ['def', 'a.ts:2:x', '--server', 'typescript-language-server'];
  const r = await lspq.run(asked, { cwd: dir });
  expect([r.exit, r.stdout, existsSync(mark)]).toEqual([0, 'a.ts:1:14: export const x = 1;\n', false]);
  expect(r.stderr).toBe(
    `lspq: warning: left out typescript-language-server from node_modules/.bin (node_modules/.bin/typescript-language-server): the workspace is not trusted, and no box can be made here (LSPQ_BOX=off) (lspq trust ${dir} lets it run)\n`,
  );
  expect((await lspq.run(['trust'], { cwd: dir })).exit).toBe(0);
  const trusted = await lspq.run(asked, { cwd: dir });
  expect([trusted.exit, trusted.stdout, trusted.stderr, existsSync(mark)]).toEqual([
    0,
    'a.ts:1:14: export const x = 1;\n',
    '',
    true,
  ]);
});

describe('lspq trust: a changed .lsp.json needs trusting again; --list, --revoke; LSPQ_TRUST=all; servers shows it', () => {
  test('the whole life of a trust', async () => {
    const mark = join(base, `mark-${++n}`);
    const config = (args: string[]) =>
      JSON.stringify({ evil: { command: 'sh', args, extensionToLanguage: { '.ts': 'typescript' } } });
    const dir = repo({ 'a.ts': TS, '.lsp.json': config(['-c', `exec '${tsls}' --stdio`]) });
    const servers = await lspq.json<{ untrusted: string[] }>(['servers'], { cwd: dir });
    expect(servers.untrusted).toEqual(['the servers and settings of its .lsp.json']);
    expect((await lspq.run(['trust'], { cwd: dir })).exit).toBe(0);
    const listed = await lspq.json<{ trusted: { path: string; configs: Record<string, string> }[] }>([
      'trust',
      '--list',
    ]);
    expect(listed.trusted.map((t) => [t.path, Object.keys(t.configs)])).toContainEqual([dir, ['.lsp.json']]);
    expect((await lspq.json<{ untrusted: string[] }>(['servers'], { cwd: dir })).untrusted).toEqual([]);
    // Changed after it was trusted: left out again until trusted again.
    writeFileSync(join(dir, '.lsp.json'), config(['-c', `touch '${mark}'; exec '${tsls}' --stdio`]));
    const changed = await lspq.run(['def', 'a.ts:2:x'], { cwd: dir });
    expect(changed.stderr).toMatch(LEFT_OUT);
    expect(existsSync(mark)).toBe(false);
    // LSPQ_TRUST=all, for CI: it runs.
    const all = await lspq.run(['def', 'a.ts:2:x'], { cwd: dir, env: { LSPQ_TRUST: 'all' } });
    expect([all.exit, all.stderr]).toEqual([0, '']);
    expect(existsSync(mark)).toBe(true);
    expect((await lspq.run(['trust', '--revoke'], { cwd: dir })).exit).toBe(0);
    const revoked = await lspq.json<{ trusted: { path: string }[] }>(['trust', '--list']);
    expect(revoked.trusted.map((t) => t.path)).not.toContain(dir);
  });
});
