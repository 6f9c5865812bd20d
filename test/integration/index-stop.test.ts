/**
 * lspq index stops its indexer with itself: one that runs past --timeout
 * (here a scip-typescript that only sleeps) is killed with its group and
 * nothing is written; a command killed under it (Ctrl-C) takes it along
 * too. And an index whose manifest describes another index is not trusted.
 */
import { afterAll, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, Lspq, lspqArgv } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A project whose scip-typescript sleeps forever (and its child with it), marked so the test can find them. */
function sleepyProject(): { dir: string; env: Record<string, string>; mark: string } {
  const dir = copyFixture('ts-shapes');
  scratch.push(dir);
  const bin = join(dir, 'sleepy-bin');
  mkdirSync(bin);
  const mark = `sleepy-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  // The mark stands in the sleeps' argv[0], where pgrep -f finds it (sleep would refuse it as an argument).
  writeFileSync(
    join(bin, 'scip-typescript'),
    `#!/bin/bash\n(exec -a ${mark} sleep 300) &\nexec -a ${mark} sleep 301\n`,
  );
  chmodSync(join(bin, 'scip-typescript'), 0o755);
  return { dir, env: { PATH: `${bin}:${process.env.PATH}` }, mark };
}

const running = (mark: string) => Bun.spawnSync(['pgrep', '-f', mark]).stdout.toString().split('\n').filter(Boolean);

test('past --timeout: the indexer and its helpers are stopped, nothing is written', async () => {
  const { dir, env, mark } = sleepyProject();
  const r = await lspq.run(['index', '--timeout', '2'], { cwd: dir, env });
  expect([r.exit, r.stderr]).toEqual([
    3,
    `lspq: scip-typescript did not finish indexing ${dir} within 2s; it was stopped and nothing was written (retry with a larger --timeout)\n`,
  ]);
  expect(running(mark)).toEqual([]);
  expect(existsSync(join(dir, '.lspq', 'index.scip'))).toBe(false);
  expect(readdirSync(join(dir, '.lspq')).filter((f) => f.startsWith('.lspq-index-'))).toEqual([]);
});

test('the command killed under it (Ctrl-C): the indexer goes too', async () => {
  const { dir, env, mark } = sleepyProject();
  const proc = Bun.spawn([...lspqArgv(), 'index'], {
    cwd: dir,
    env: lspq.env(env),
    stdout: 'ignore',
    stderr: 'ignore',
  });
  while (running(mark).length === 0) await Bun.sleep(20);
  proc.kill('SIGINT');
  await proc.exited;
  for (let i = 0; i < 200 && running(mark).length > 0; i++) await Bun.sleep(25);
  expect(running(mark)).toEqual([]);
});

test('a manifest beside another index (a build cut short between its two renames) is not read', async () => {
  const dir = copyFixture('ts-shapes');
  scratch.push(dir);
  expect((await lspq.run(['index'], { cwd: dir })).exit).toBe(0);
  // Another index in its place, the manifest left as it was.
  const { appendFileSync } = await import('node:fs');
  appendFileSync(join(dir, '.lspq', 'index.scip'), Buffer.from([0x0a, 0x00]));
  const { readManifest } = await import('../../src/scip/manifest');
  expect(readManifest(join(dir, '.lspq', 'index.scip'))).toBeUndefined();
});
