/**
 * Files a cloned repository can hold to stall the one daemon every client
 * shares, as an attacker plants them: a FIFO where lspq reads a
 * configuration file (the open waited for a writer forever), a link to
 * /dev/zero (read until memory ran out), an 8 MB one-line source file (its
 * lexical scan and names held the thread for minutes). Each is skipped and
 * named, the question ends within its --timeout with exit 3, and a warm
 * question in another workspace is answered meanwhile. Then the MCP target
 * read by another parser than the check's, an MCP mv into .git/hooks, and a
 * socket folder planted as a link.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FIXTURES, git, Lspq, lspqArgv, REPO, scratchDir } from '../helpers/lspq';

const lspq = new Lspq({ trusting: false });
const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-hostile-files-')));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const TS = 'export const x = 1;\nexport const y = x + 1;\n';
const DEF = 'a.ts:1:14: export const x = 1;\n';

let n = 0;
/** A new repository holding `files`; `fifo`: names made FIFOs, `links`: names made links to a path. */
function workspace(files: Record<string, string>, special: { fifo?: string[]; links?: Record<string, string> } = {}) {
  const dir = join(base, `w${++n}`);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const name of special.fifo ?? []) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    expect(Bun.spawnSync(['mkfifo', join(dir, name)]).exitCode).toBe(0);
  }
  for (const [name, to] of Object.entries(special.links ?? {})) symlinkSync(to, join(dir, name));
  return dir;
}

/** Runs lspq and how long it took, in ms. */
async function timed(args: string[], cwd: string, env?: Record<string, string | undefined>) {
  const started = performance.now();
  const r = await lspq.run(args, { cwd, ...(env ? { env } : {}) });
  return { ...r, ms: performance.now() - started };
}

const TIMEOUT = 5;
/** Within its --timeout, with a second for the command and the daemon's start. */
const WITHIN_MS = (TIMEOUT + 1.5) * 1000;

const FIX = '(lspq reads only regular files of a workspace: replace it with one, or remove it)';
/** The one line of a question that skipped `name` before a server would start in `dir` (which would read it too). */
const noServer = (name: string, what: string, dir: string) =>
  `lspq: skipped ${name}: not a regular file (${what}); no server was started for ${dir}, which would read it too ${FIX}\n`;

describe('a FIFO where lspq reads a configuration file: skipped and named, exit 3 within --timeout', () => {
  // Each file lspq itself reads, and a question that makes it read it.
  const cases: { name: string; files: Record<string, string>; args: string[]; env?: Record<string, string> }[] = [
    { name: 'tsconfig.json', files: { 'a.ts': TS }, args: ['def', 'a.ts:2:x'] },
    { name: 'package.json', files: { 'a.ts': TS, 'tsconfig.json': '{}\n' }, args: ['def', 'a.ts:2:x'] },
    {
      name: '.lsp.json',
      files: { 'a.ts': TS, 'tsconfig.json': '{}\n' },
      args: ['def', 'a.ts:2:x'],
      env: { LSPQ_TRUST: 'all' },
    },
    {
      name: 'pyproject.toml',
      files: { 'a.py': 'def twice(n):\n    return n * 2\n\ntwice(1)\n' },
      args: ['def', 'a.py:4:twice'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const dir = workspace(c.files, { fifo: [c.name] });
      const r = await timed([...c.args, '--timeout', String(TIMEOUT)], dir, c.env);
      expect([r.stdout, r.stderr, r.exit]).toEqual(['', noServer(c.name, 'a named pipe', dir), 3]);
      expect(r.ms).toBeLessThan(WITHIN_MS);
    }, 20_000);
  }

  test('.editorconfig (read for fmt once its server runs): the diff is not the whole answer, exit 3', async () => {
    const dir = workspace({ 'a.ts': TS, 'tsconfig.json': '{}\n' }, { fifo: ['.editorconfig'] });
    const r = await timed(['fmt', 'a.ts', '--timeout', '20'], dir);
    expect([r.stdout, r.stderr, r.exit]).toEqual([
      '',
      `lspq: skipped .editorconfig: not a regular file (a named pipe); the answer could depend on it ${FIX}\n`,
      3,
    ]);
  }, 30_000);

  test('Cargo.toml: rust-analyzer, untrusted, is not started without one lspq can name', async () => {
    const dir = workspace(
      { 'src/main.rs': 'fn twice(n: i32) -> i32 { n * 2 }\nfn main() { twice(1); }\n' },
      { fifo: ['Cargo.toml'] },
    );
    const r = await timed(['def', 'src/main.rs:2:twice', '--timeout', String(TIMEOUT)], dir);
    expect([r.stdout, r.exit]).toEqual(['', 3]);
    expect(r.stderr).toContain('lspq: warning: skipped Cargo.toml: not a regular file (a named pipe)\n');
    expect(r.ms).toBeLessThan(WITHIN_MS);
  }, 20_000);

  test('a FIFO .git (a worktree’s .git is a file lspq reads)', async () => {
    const dir = join(base, `w${++n}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.ts'), TS);
    writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
    expect(Bun.spawnSync(['mkfifo', join(dir, '.git')]).exitCode).toBe(0);
    const r = await timed(['def', 'a.ts:2:x', '--timeout', String(TIMEOUT)], dir);
    expect([r.stdout, r.stderr, r.exit]).toEqual(['', noServer('.git', 'a named pipe', dir), 3]);
    expect(r.ms).toBeLessThan(WITHIN_MS);
  }, 20_000);
});

test('Cargo.toml -> /dev/zero: skipped as a device, never read, and no server started to read it', async () => {
  const dir = workspace(
    { 'src/main.rs': 'fn twice(n: i32) -> i32 { n * 2 }\nfn main() { twice(1); }\n' },
    { links: { 'Cargo.toml': '/dev/zero' } },
  );
  const r = await timed(['def', 'src/main.rs:2:twice', '--timeout', String(TIMEOUT), '--json'], dir);
  expect(r.exit).toBe(3);
  expect(JSON.parse(r.stdout)).toEqual({
    error: { code: 'incomplete', message: noServer('Cargo.toml', 'a device', dir).slice('lspq: '.length, -1) },
  });
  expect(r.ms).toBeLessThan(WITHIN_MS);
}, 20_000);

test('.editorconfig -> /dev/zero: fmt skips it as a device and exits 3, the file as it was', async () => {
  const ugly = 'export const   x=1;\n';
  const dir = workspace({ 'a.ts': ugly, 'tsconfig.json': '{}\n' }, { links: { '.editorconfig': '/dev/zero' } });
  const r = await timed(['fmt', '--write', 'a.ts', '--timeout', '20'], dir);
  expect([r.stdout, r.stderr, r.exit]).toEqual([
    '',
    `lspq: skipped .editorconfig: not a regular file (a device); nothing was written ${FIX}\n`,
    3,
  ]);
  expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toBe(ugly);
}, 30_000);

test('a configuration file past 1 MB is skipped and named, not parsed', async () => {
  const big = `{"name":"p","description":"${'x'.repeat(1_200_000)}"}\n`;
  const dir = workspace({ 'a.ts': TS, 'tsconfig.json': '{}\n', 'package.json': big });
  const r = await timed(['def', 'a.ts:2:x', '--timeout', String(TIMEOUT)], dir);
  expect([r.stdout, r.stderr, r.exit]).toEqual([
    '',
    `lspq: skipped package.json: 1.1 MB, past the 1 MB lspq reads of a configuration file; no server was started for ${dir}, which would read it too ${FIX}\n`,
    3,
  ]);
}, 20_000);

test('an 8 MB one-line source file in workspace B: a warm def in workspace A answers meanwhile, and B ends within its --timeout', async () => {
  const a = scratchDir('hostile-a');
  try {
    writeFileSync(join(a, 'a.ts'), TS);
    writeFileSync(join(a, 'tsconfig.json'), '{}\n');
    // Warm: A's server started and its answer known.
    expect((await lspq.run(['def', 'a.ts:2:x'], { cwd: a })).stdout).toBe(DEF);
    // 8 MB on one line: every `/` opened a regular expression whose class never closed, scanned to the line's end.
    // B's server (a fake that never answers a definition) keeps B's question in flight until its --timeout.
    const b = workspace({ 'big.ts': `const x = 1; ${'(/['.repeat(2_800_000)}\n` });
    const server = {
      command: process.execPath,
      args: [join(REPO, 'test', 'fakes', 'hangs-on-definition.ts'), '--cancel-marker', join(b, 'cancelled')],
      extensionToLanguage: { '.ts': 'typescript' },
      rootMarkers: ['.lsp.json'],
    };
    writeFileSync(join(b, '.lsp.json'), JSON.stringify({ fake: server }));
    let bDone = false;
    const bQuestion = timed(['def', 'big.ts:1:x', '--server', 'fake', '--timeout', '8'], b, {
      LSPQ_TRUST: 'all',
    }).then((r) => {
      bDone = true;
      return r;
    });
    await Bun.sleep(1_500);
    for (let i = 0; i < 3; i++) {
      const r = await lspq.run(['def', 'a.ts:2:x', '--timeout', '5'], { cwd: a });
      expect([r.stdout, r.exit, bDone]).toEqual([DEF, 0, false]);
    }
    const r = await bQuestion;
    expect([r.stdout, r.stderr, r.exit]).toEqual([
      '',
      "lspq: fake did not answer textDocument/definition within 8s; retry with a larger --timeout, or see 'lspq daemon logs'\n",
      3,
    ]);
    expect(r.ms).toBeLessThan(9_500);
  } finally {
    rmSync(a, { recursive: true, force: true });
  }
}, 40_000);

describe('MCP: the target checked is the target read; no edit into .git', () => {
  const dir = scratchDir('mcp-hostile');
  const outside = scratchDir('mcp-outside');
  writeFileSync(join(dir, 'app.ts'), "import { twice } from './lib';\nexport const four = twice(2);\n");
  writeFileSync(join(dir, 'lib.ts'), 'export function twice(n: number): number {\n  return n * 2;\n}\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(
    join(outside, 'use.ts'),
    'export const one = 1;\nexport function twice(s: string): string { return s + s; }\n',
  );
  const own = new Lspq();
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return { isError: r.isError === true, text: (r.content as { type: string; text: string }[])[0]?.text ?? '' };
  };
  afterAll(async () => {
    await client.close();
    expect(await own.stop()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test('def of app.ts:1:/../../<outside>/use.ts:2:twice: refused, the file outside never read', async () => {
    const [command, ...args] = lspqArgv();
    const transport = new StdioClientTransport({ command: command!, args: [...args, 'mcp'], cwd: dir, env: own.env() });
    client = new Client({ name: 'lspq-test', version: '1.0.0' });
    await client.connect(transport);
    // The command's parser reads FILE as everything before the last :LINE:NAME, which `..` takes out of the workspace.
    const outward = `app.ts:1:/../../${outside.split('/').at(-1)}/use.ts`;
    expect(realpathSync(join(dir, outward.replace(':1:', '/')))).toBe(realpathSync(join(outside, 'use.ts')));
    const r = await call('def', { target: `${outward}:2:twice` });
    expect(r).toEqual({
      isError: true,
      text: `lspq def: ${outward} is outside the workspace this MCP server was started for (${dir}); start another in that folder (lspq mcp --root DIR)`,
    });
    // The workspace's own target still answers.
    const ok = await call('def', { target: 'app.ts:2:twice' });
    expect([ok.isError, ok.text]).toEqual([false, 'lib.ts:1:17: export function twice(n: number): number {']);
  });

  test('mv into .git/hooks/post-commit, dry run or applied: refused, nothing moved', async () => {
    for (const apply of [false, true]) {
      const r = await call('mv', { old: 'lib.ts', new: '.git/hooks/post-commit', ...(apply ? { apply } : {}) });
      expect(r).toEqual({
        isError: true,
        text: 'lspq mv: .git/hooks/post-commit is inside a .git folder, which no MCP edit writes (git runs its hooks); nothing was written',
      });
    }
    expect([existsSync(join(dir, 'lib.ts')), existsSync(join(dir, '.git', 'hooks', 'post-commit'))]).toEqual([
      true,
      false,
    ]);
  });

  test('mv through a link into .git: refused where it lands', async () => {
    symlinkSync(join(dir, '.git', 'hooks'), join(dir, 'hooks'));
    const r = await call('mv', { old: 'lib.ts', new: 'hooks/post-commit', apply: true });
    expect(r).toEqual({
      isError: true,
      text: 'lspq mv: hooks/post-commit is inside a .git folder, which no MCP edit writes (git runs its hooks); nothing was written',
    });
    expect(existsSync(join(dir, '.git', 'hooks', 'post-commit'))).toBe(false);
  });
});

describe('the socket folder planted as a link', () => {
  test('refused before anything is sent: the listener behind the link receives no question', async () => {
    // Another local user's plant: a link where the user's socket folder goes, to a folder that passes the checks
    // (the user's own, 0700), which the planter swaps for one it listens in once the check is made.
    const run = join(base, 'planted');
    const swapped = join(run, 'theirs');
    mkdirSync(swapped, { recursive: true, mode: 0o700 });
    const link = join(run, 'lspq');
    symlinkSync(swapped, link);
    const received: string[] = [];
    const listener = Bun.listen({
      unix: join(swapped, 'daemon.sock'),
      socket: { data: (_s, chunk) => void received.push(new TextDecoder().decode(chunk)) },
    });
    try {
      const r = await lspq.run(['def', 'a.ts:2:x', '--timeout', '2'], {
        cwd: FIXTURES,
        env: { LSPQ_SOCKET: join(link, 'daemon.sock'), SECRET_TOKEN: 'do-not-send' },
      });
      expect([r.stdout, r.stderr, r.exit]).toEqual([
        '',
        `lspq: refusing the daemon folder ${link}: it is a symbolic link, not a folder; remove it or set LSPQ_SOCKET\n`,
        3,
      ]);
      await Bun.sleep(200);
      expect(received).toEqual([]);
    } finally {
      listener.stop(true);
    }
  });

  test('a real folder of the user’s own still serves: the question goes through the folder it checked', async () => {
    const dir = workspace({ 'a.ts': TS, 'tsconfig.json': '{}\n' });
    const r = await lspq.run(['def', 'a.ts:2:x'], { cwd: dir });
    expect([r.stdout, r.exit]).toEqual([DEF, 0]);
  }, 20_000);
});
