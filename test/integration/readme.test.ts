/**
 * The README: its install line and its First query print what it says
 * (each command of the block run in bash, lspq on PATH, from the checkout),
 * and its table of commands teaches their own examples.
 */
import { afterAll, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/commands/list';
import { Lspq, lspqArgv, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const bin = join(lspq.dir, 'bin');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(bin, { recursive: true, force: true });
});

test("the install command's query and its documented answer", async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const command = /npm install && npm run build && \.\/dist\/lspq (.+)\n/.exec(readme)?.[1];
  const printed = /It prints `(.+)`\./.exec(readme)?.[1];
  expect(command).toBe('def --symbol LspqError');
  const r = await lspq.run(command!.split(' '), { cwd: REPO });
  expect(r.stdout).toBe(`${printed}\n`);
  expect(r.exit).toBe(0);
});

test('the First query block: each command prints the lines under it', async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const block = /## First query\n[\s\S]*?```console\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const steps = block
    .split(/^\$ /m)
    .filter(Boolean)
    .map((s) => {
      const [command = '', ...printed] = s.split('\n');
      return { command, printed: printed.join('\n') };
    });
  expect(steps.map((s) => s.command.split(' ')[0])).toEqual(['cd', 'lspq', 'lspq', 'lspq']);
  // `lspq` on PATH as the reader has it: this build, whichever way the tests run it.
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'lspq'), `#!/bin/sh\nexec ${lspqArgv().join(' ')} "$@"\n`);
  chmodSync(join(bin, 'lspq'), 0o755);
  const env = lspq.env();
  // Each command's output after a line of its own, in one bash, so `cd` holds for the next.
  const script = steps.map((s) => `echo '@@ ${s.command.replaceAll("'", '')}'; ${s.command}`).join('\n');
  const proc = Bun.spawn(['bash', '-c', `set -o pipefail\n${script}`], {
    cwd: REPO,
    env: { ...env, PATH: `${bin}:${env.PATH}` },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect([exit, err]).toEqual([0, '']);
  const printed = out.split(/^@@ .*\n/m).slice(1);
  expect(printed).toEqual(steps.map((s) => s.printed));
});

test("the README's command table: every command once, each example one its --help teaches (and help.test.ts runs)", () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| `(\w+)` \| .* \| `(.+)` \|$/gm)].map((m) => [
    m[1]!,
    m[2]!.replaceAll('\\|', '|'),
  ]);
  expect(rows.map(([name]) => name)).toEqual(Object.keys(COMMANDS));
  for (const [name = '', example = ''] of rows)
    expect(COMMANDS[name as keyof typeof COMMANDS].examples as readonly string[]).toContain(example);
});
