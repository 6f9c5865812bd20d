/**
 * The navigation suite every language runs: exact files, lines and columns
 * of what lspq prints, warm through the daemon and cold with --no-daemon.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq } from './lspq';

export interface NavCase {
  name: string;
  args: string[];
  stdout: string;
  exit?: number;
  /** Also asked first, of a cold server started for just this question. */
  cold?: boolean;
  stderr?: RegExp;
}

export function navSuite(fixture: string, cases: NavCase[]): void {
  const cwd = join(FIXTURES, fixture);
  const lspq = new Lspq();
  describe(`${fixture}`, () => {
    for (const c of cases.filter((x) => x.cold)) {
      test(`cold: ${c.name}`, async () => {
        const r = await lspq.run([...c.args, '--no-daemon'], { cwd });
        expect(r.stdout).toBe(c.stdout);
        expect(r.exit).toBe(c.exit ?? 0);
      });
    }
    for (const c of cases) {
      test(c.name, async () => {
        const r = await lspq.run(c.args, { cwd });
        expect(r.stdout).toBe(c.stdout);
        if (c.stderr) expect(r.stderr).toMatch(c.stderr);
        expect(r.exit).toBe(c.exit ?? 0);
      });
    }
    afterAll(async () => {
      expect(await lspq.stop()).toEqual([]);
    });
  });
}
