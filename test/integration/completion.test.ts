/**
 * lspq completion bash|zsh|fish, loaded in the real shells and asked to
 * complete: a command (`lspq re` → refs, rename), a flag (`lspq def --js`
 * → --json), a flag's values (`diag --format`), a daemon action, and file
 * names for a target.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, Lspq, REPO } from '../helpers/lspq';

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
});

test('a shell lspq does not know: one line, exit 2', async () => {
  expect(await lspq.run(['completion', 'tcsh'])).toEqual({
    exit: 2,
    stdout: '',
    stderr: "lspq: lspq completion takes bash, zsh or fish, not 'tcsh'; e.g. source <(lspq completion bash)\n",
  });
});
