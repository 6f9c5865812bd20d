/**
 * lspq in a git hook: git puts its own exec folder first on a hook's PATH,
 * which changes no server's answer, so the hook must reuse the servers a
 * question outside it warmed (the same process), not start a second one.
 */
import { afterAll, expect, test } from 'bun:test';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capture, copyFixture, git, Lspq, lspqArgv } from '../helpers/lspq';

const lspq = new Lspq();
const dir = copyFixture('ts-shapes');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

interface Held {
  id: string;
  root: string;
  pid: number;
}

const held = async () =>
  (await lspq.json<{ servers: Held[] }>(['daemon', 'status'])).servers
    .filter((s) => s.root === dir)
    .map((s) => ({ id: s.id, pid: s.pid }));

test('a real commit through the pre-commit hook reuses the warm server (same pid)', async () => {
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'shapes');
  const hook = join(dir, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, `#!/bin/sh\nexec '${lspqArgv().join("' '")}' diag --staged --fail-on error\n`);
  chmodSync(hook, 0o755);

  const warm = await lspq.run(['diag', 'src/main.ts'], { cwd: dir });
  expect(warm.exit).toBe(0);
  const before = await held();
  expect(before.map((s) => s.id)).toEqual(['typescript']);

  writeFileSync(join(dir, 'src', 'extra.ts'), 'export const extra: number = 1;\n');
  git(dir, 'add', 'src/extra.ts');
  const committed = await capture(
    ['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'extra'],
    dir,
    lspq.env(),
  );
  expect(committed).toEqual({ exit: 0, stdout: '', stderr: 'lspq: no problems in 1 file\n' });
  expect(git(dir, 'log', '--format=%s')).toBe('extra\nshapes\n');
  expect(await held()).toEqual(before);
});
