/**
 * The daemon keeps its servers' memory under LSPQ_MEMORY_LIMIT_MB (here
 * 250 MB), with fake servers that hold a known amount (150 MB each, a
 * third that grows by 300 MB while it works on a question):
 * - two together over the limit: the least recently used idle one stops;
 * - one alone over it, busy: it is stopped all the same, the question it
 *   served fails with exit 3 naming its size and the limit, and the next
 *   question gets a fresh server;
 * - daemon status shows each server's memory and the total.
 */
import { afterAll, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeProject, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const env = { LSPQ_MEMORY_LIMIT_MB: '250' };
const projects: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const p of projects) rmSync(p, { recursive: true, force: true });
});

/** A fake project whose server holds `hold` MB, and grows by `grow` MB on a definition in a file saying "grow". */
function holding(name: string, hold: number, grow = 0): string {
  const dir = fakeProject(name, 'holds-memory');
  const server = {
    command: process.execPath,
    args: [join(REPO, 'test', 'fakes', 'holds-memory.ts'), '--cancel-marker', join(dir, 'cancelled')],
    extensionToLanguage: { '.fake': 'fake' },
    rootMarkers: ['.lsp.json'],
    env: { LSPQ_FAKE_HOLD_MB: String(hold), LSPQ_FAKE_GROW_MB: String(grow) },
  };
  writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ fake: server }));
  projects.push(dir);
  return dir;
}

interface Status {
  servers: { id: string; root: string; memoryBytes: number | null }[];
  serversMemoryBytes: number;
  memoryLimitBytes: number;
}

async function rootsUntil(wanted: string[]): Promise<Status> {
  let status: Status | undefined;
  for (let i = 0; i < 100; i++) {
    status = await lspq.json<Status>(['daemon', 'status'], { env });
    if (JSON.stringify(status.servers.map((s) => s.root).sort()) === JSON.stringify([...wanted].sort())) return status;
    await Bun.sleep(100);
  }
  return status!;
}

const a = holding('a', 150);
const b = holding('b', 150);
const grows = holding('grows', 10, 300);
writeFileSync(join(grows, 'g.fake'), 'grow here\n');

test('two over the limit together: the least recently used idle one stops; each server memory shown', async () => {
  expect((await lspq.run(['def', 'a.fake:1:1'], { cwd: a, env })).exit).toBe(0);
  const alone = await rootsUntil([a]);
  expect(alone.memoryLimitBytes).toBe(250 * 1_048_576);
  expect(alone.servers[0]!.memoryBytes).toBeGreaterThan(150 * 1_048_576);
  expect(alone.serversMemoryBytes).toBe(alone.servers[0]!.memoryBytes!);
  expect((await lspq.run(['def', 'a.fake:1:1'], { cwd: b, env })).exit).toBe(0);
  expect((await rootsUntil([b])).servers.map((s) => s.root)).toEqual([b]);
  expect((await lspq.run(['daemon', 'logs'], { env })).stdout).toMatch(
    new RegExp(`memory over the limit: stopping fake \\(${a}\\), \\d+ MB`),
  );
});

test('one alone over the limit while it works: stopped, its question exit 3 naming the sizes; the next gets a fresh one', async () => {
  const r = await lspq.run(['def', 'g.fake:1:1'], { cwd: grows, env });
  expect(r.exit).toBe(3);
  expect(r.stderr).toMatch(
    new RegExp(
      `^lspq: fake grew to \\d+ MB, over the 250 MB limit \\(LSPQ_MEMORY_LIMIT_MB\\), so it was stopped \\(root ${grows}\\); the next command starts it again \\(raise the limit if the project needs more\\)\\n$`,
    ),
  );
  expect((await lspq.run(['daemon', 'logs'], { env })).stdout).toMatch(
    /fake \(.*\) alone uses \d+ MB; stopping it though in use/,
  );
  const again = await lspq.run(['def', 'a.fake:1:1'], { cwd: grows, env });
  expect([again.exit, again.stdout]).toEqual([0, 'a.fake:1:1: hello a\n']);
});
