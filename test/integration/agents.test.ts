/**
 * lspq help agents: the page for an agent's instructions file, under 120
 * lines, the same as docs/agents.md, and every command in it run as an
 * agent would run it (bash, lspq on PATH, jq) in a Go fixture: each exits 0
 * and prints something (but fmt and diag, the fixture being formatted and
 * clean, and a rename's diff that diag --patch finds introduces nothing).
 */
import { afterAll, expect, test } from 'bun:test';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Lspq, lspqArgv, REPO, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('agents');
cpSync(join(FIXTURES, 'go-shapes'), dir, { recursive: true });
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

const page = readFileSync(join(REPO, 'docs', 'agents.md'), 'utf8');

/** The command lines of the page's sh blocks. */
const commands = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split('\n'));

test('lspq help agents prints docs/agents.md, under 120 lines', async () => {
  const r = await lspq.run(['help', 'agents']);
  expect([r.exit, r.stderr, r.stdout]).toEqual([0, '', page]);
  expect(page.split('\n').length).toBeLessThan(120);
  expect(commands.length).toBeGreaterThan(15);
});

test.each(commands)('%s', async (command) => {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  const [lspqBin] = lspqArgv();
  try {
    symlinkSync(lspqBin!, join(bin, 'lspq'));
  } catch {}
  const env = lspq.env();
  const proc = Bun.spawn(['bash', '-c', `set -o pipefail; ${command}`], {
    cwd: dir,
    env: { ...env, PATH: `${bin}:${env.PATH}` },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ exit, stderr: exit === 0 ? '' : stderr }).toEqual({ exit: 0, stderr: '' });
  // The fixture is formatted and clean: fmt and diag (last in a pipe too) have nothing to print.
  if (!/(^|\| )lspq (fmt|diag) /.test(command)) expect(stdout.length).toBeGreaterThan(0);
});
