/** The README's first query prints what the README says it prints. */
import { afterAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
