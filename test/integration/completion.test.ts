/**
 * lspq completion bash|zsh|fish, loaded in the real shells and asked to
 * complete: a command (`lspq re` → refs, rename), a flag (`lspq def --js`
 * → --json), a flag's values (`diag --format`), a daemon action, file
 * names for a target, a command after global flags (`lspq --json d`),
 * `help` and what it takes, and the server ids --server takes.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, Lspq, REPO } from '../helpers/lspq';
import { BUILTIN_SERVERS } from '../../src/lsp/servers/registry';

const SERVER_IDS = BUILTIN_SERVERS.map((s) => s.id);

const lspq = new Lspq();
const dir = mkdtempSync(join(tmpdir(), 'lspq-completion-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

async function script(shell: string): Promise<string> {
  const r = await lspq.run(['completion', shell]);
  expect([r.exit, r.stderr]).toEqual([0, '']);
  const file = join(dir, `lspq.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

function run(argv: string[], cwd = REPO): string {
  const r = Bun.spawnSync(argv, {
    cwd,
    stdin: 'ignore',
    env: { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'xterm' },
  });
  return r.stdout.toString();
}

describe('bash', () => {
  const complete = async (words: string[], cwd?: string) => {
    const file = await script('bash');
    const body = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _lspq; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return run(['bash', '--norc', '-c', body], cwd).trim().split('\n');
  };
  test('a command, a flag, a flag value, an action, a file', async () => {
    expect(await complete(['lspq', 're'])).toEqual(['refs', 'rename']);
    expect(await complete(['lspq', 'def', '--js'])).toEqual(['--json']);
    expect(await complete(['lspq', 'diag', '--format', ''])).toEqual(['sarif', 'github']);
    expect(await complete(['lspq', 'daemon', 'st'])).toEqual(['status', 'stop']);
    expect(await complete(['lspq', 'def', 'ma'], join(FIXTURES, 'go-shapes'))).toEqual(['main.go']);
    expect(await complete(['lspq', 'symbols', '--kind', 'cla'])).toEqual(['class']);
  });
  test('after global flags, help, and the server ids --server takes', async () => {
    expect(await complete(['lspq', '--json', 'd'])).toEqual(['def', 'diag', 'daemon']);
    expect(await complete(['lspq', '--json', '--root', '.', 're'])).toEqual(['refs', 'rename']);
    expect(await complete(['lspq', '--j'])).toEqual(['--json']);
    expect(await complete(['lspq', 'h'])).toEqual(['hover', 'hook', 'help']);
    expect(await complete(['lspq', 'help', 'sy'])).toEqual(['symbols']);
    expect(await complete(['lspq', 'help', 'ag'])).toEqual(['agents']);
    expect(await complete(['lspq', 'def', '--server', ''])).toEqual(SERVER_IDS);
    expect(await complete(['lspq', '--server', 'gop'])).toEqual(['gopls']);
    expect(await complete(['lspq', '--server', 'gopls', 'ref'])).toEqual(['refs']);
    expect(await complete(['lspq', '--server', 'gopls', 'refs', '--js'])).toEqual(['--json']);
  });
});

describe('fish', () => {
  const complete = async (line: string, cwd?: string) => {
    const file = await script('fish');
    return run(['fish', '--no-config', '-c', `source ${file}; complete -C '${line}'`], cwd)
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0]);
  };
  test('a command, a flag, a flag value, a file', async () => {
    expect(await complete('lspq re')).toEqual(['refs', 'rename']);
    expect(await complete('lspq def --js')).toEqual(['--json']);
    expect((await complete('lspq diag --format ')).sort()).toEqual(['github', 'sarif']);
    expect(await complete('lspq def ma', join(FIXTURES, 'go-shapes'))).toEqual(['main.go']);
  });
  test('after global flags, help, and the server ids --server takes', async () => {
    expect(await complete('lspq --json d')).toEqual(['daemon', 'def', 'diag']);
    expect(await complete('lspq --server gopls re')).toEqual(['refs', 'rename']);
    expect(await complete('lspq --j')).toEqual(['--json']);
    expect(await complete('lspq h')).toEqual(['help', 'hook', 'hover']);
    expect(await complete('lspq help sy')).toEqual(['symbols']);
    expect((await complete('lspq def --server ')).sort()).toEqual([...SERVER_IDS].sort());
    expect(await complete('lspq --server gop')).toEqual(['gopls']);
  });
});

describe('zsh', () => {
  const complete = async (line: string) => {
    const file = await script('zsh');
    return run(['zsh', '-f', join(REPO, 'test', 'helpers', 'zsh-complete.zsh'), file, line]);
  };
  test('a command: the completion system lists refs and rename with their summaries', async () => {
    const shown = await complete('lspq re');
    expect(shown).toContain('refs    -- references to the symbol at TARGET');
    expect(shown).toMatch(/rename {2}-- rename the symbol at TARGET/);
    expect(shown).not.toContain('rebuild');
  });
  test('a flag: --js becomes --json', async () => {
    expect(await complete('lspq def --js')).toContain('lspq def --json');
  });
  test('after global flags, help, and the server ids --server takes', async () => {
    const commands = await complete('lspq --json d');
    expect(commands).toContain('def     -- definition(s) of the symbol at TARGET');
    expect(commands).toMatch(/daemon {2}-- /);
    expect(commands).not.toContain('bash');
    expect(await complete('lspq h')).toMatch(/help {3}-- a command's flags and examples/);
    expect(await complete('lspq help sym')).toContain('lspq help symbols');
    expect(await complete('lspq def --server gop')).toContain('lspq def --server gopls');
    expect(await complete('lspq --server gop')).toContain('lspq --server gopls');
  });
});

test('a shell lspq does not know: one line, exit 2', async () => {
  expect(await lspq.run(['completion', 'tcsh'])).toEqual({
    exit: 2,
    stdout: '',
    stderr: "lspq: lspq completion takes bash, zsh or fish, not 'tcsh'; e.g. source <(lspq completion bash)\n",
  });
});
