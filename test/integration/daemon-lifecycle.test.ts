/**
 * The daemon's own lifecycle around a server that never starts (it never
 * answers initialize and ignores SIGTERM): a question with --timeout 5
 * fails after 5 seconds naming the server, not the daemon; `daemon stop`
 * returns once the daemon is gone, with the server killed, and the next
 * command starts a fresh daemon at once. A question under way when the
 * daemon is told to stop is answered first.
 */
import { afterAll, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeProject, isAlive, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function silentProject(): string {
  const dir = fakeProject('silent', 'well-behaved');
  scratch.push(dir);
  const server = {
    command: process.execPath,
    args: [join(REPO, 'test', 'fakes', 'never-initializes.ts')],
    extensionToLanguage: { '.fake': 'fake' },
    rootMarkers: ['.lsp.json'],
  };
  writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ silent: server }));
  return dir;
}

/** The pids of processes whose command line names the silent server. */
function silentServers(): number[] {
  const r = Bun.spawnSync(['pgrep', '-f', 'never-initializes.ts']);
  return r.stdout.toString().split('\n').filter(Boolean).map(Number);
}

test('a server that never answers initialize: --timeout 5 fails after 5 s, naming the server', async () => {
  const dir = silentProject();
  const started = Date.now();
  const r = await lspq.run(['def', 'a.fake:1:hello', '--timeout', '5'], { cwd: dir });
  const took = Date.now() - started;
  expect(r.exit).toBe(3);
  expect(r.stderr).toContain('lspq: silent did not start within 5s (it did not answer initialize');
  expect(took).toBeLessThan(9_000);
});

test('daemon stop while that server starts: the daemon and the server are gone when it returns; the next command starts at once', async () => {
  const dir = silentProject();
  const asking = lspq.run(['def', 'a.fake:1:hello', '--timeout', '6'], { cwd: dir });
  await Bun.sleep(500);
  const status = await lspq.json<{ pid: number }>(['daemon', 'status']);
  expect(silentServers().length).toBeGreaterThan(0);
  const stop = await lspq.run(['daemon', 'stop']);
  expect([stop.exit, stop.stdout + stop.stderr]).toEqual([0, 'daemon stopped\n']);
  expect(isAlive(status.pid)).toBe(false);
  expect(silentServers()).toEqual([]);
  // The question under way is asked again of a new daemon, and fails there in its own time, naming the server.
  const asked = await asking;
  expect([asked.exit, asked.stderr]).toEqual([3, expect.stringContaining('silent did not start within 6s')]);
  expect((await lspq.run(['daemon', 'status', '--json'])).exit).toBe(0);
  expect((await lspq.run(['daemon', 'stop'])).exit).toBe(0);
  expect(silentServers()).toEqual([]);
});

test('lspq servers runs each binary beside the other questions: one that hangs on --version holds no one up', async () => {
  const { chmodSync, existsSync, mkdirSync, writeFileSync: write } = await import('node:fs');
  const bin = join(lspq.dir, 'slow-bin');
  const released = join(lspq.dir, 'released');
  mkdirSync(bin, { recursive: true });
  // A gopls whose --version answers only once the test says so.
  write(
    join(bin, 'gopls'),
    `#!/bin/sh\nwhile [ ! -f '${released}' ]; do sleep 0.05; done\necho 'golang.org/x/tools/gopls v0.0.1'\n`,
  );
  chmodSync(join(bin, 'gopls'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}` };
  const fixture = join(REPO, 'test', 'fixtures', 'ts-shapes');
  expect((await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: fixture, env })).exit).toBe(0);
  const listing = lspq.run(['servers', '--json'], { cwd: fixture, env });
  while (Bun.spawnSync(['pgrep', '-f', `${bin}/gopls`]).exitCode !== 0) await Bun.sleep(20);
  // gopls --version is still waiting: another question is answered all the same.
  const def = await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: fixture, env });
  expect([def.exit, existsSync(released)]).toEqual([0, false]);
  write(released, '');
  const servers = JSON.parse((await listing).stdout) as { servers: { id: string; version?: string }[] };
  expect(servers.servers.find((s) => s.id === 'gopls')?.version).toBe('golang.org/x/tools/gopls v0.0.1');
});
