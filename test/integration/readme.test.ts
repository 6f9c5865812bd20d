/** The README: its first query prints what it says, and its table of commands teaches their own examples. */
import { afterAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/commands/list';
import { Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
afterAll(async () => expect(await lspq.stop()).toEqual([]));

test("the install command's query and its documented answer", async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const command = /npm install && npm run build && \.\/dist\/lspq (.+)\n/.exec(readme)?.[1];
  const printed = /It prints `(.+)`\./.exec(readme)?.[1];
  expect(command).toBe('def --symbol LspqError');
  const r = await lspq.run(command!.split(' '), { cwd: REPO });
  expect(r.stdout).toBe(`${printed}\n`);
  expect(r.exit).toBe(0);
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
