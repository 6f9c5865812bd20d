/**
 * The daemon keeps its servers' memory under LSPQ_MEMORY_LIMIT_MB: set far
 * below what any server takes, the least recently used idle server is
 * stopped when another starts, the one in use is kept (and the overrun
 * logged), and daemon status shows each server's memory and the total.
 */
import { afterAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const env = { LSPQ_MEMORY_LIMIT_MB: '1' };
afterAll(async () => expect(await lspq.stop()).toEqual([]));

interface Status {
  servers: { id: string; memoryBytes: number | null }[];
  serversMemoryBytes: number;
  memoryLimitBytes: number;
}

async function serversUntil(wanted: string[]): Promise<Status> {
  let status: Status | undefined;
  for (let i = 0; i < 100; i++) {
    status = await lspq.json<Status>(['daemon', 'status'], { env });
    if (JSON.stringify(status.servers.map((s) => s.id)) === JSON.stringify(wanted)) return status;
    await Bun.sleep(100);
  }
  return status!;
}

test('over the limit: the least recently used idle server stops, the one in use stays, each server memory shown', async () => {
  expect((await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: join(FIXTURES, 'go-shapes'), env })).exit).toBe(0);
  // gopls alone is over 1 MB: it is the one in use, so it stays.
  const alone = await serversUntil(['gopls']);
  expect(alone.memoryLimitBytes).toBe(1_048_576);
  expect(alone.servers[0]!.memoryBytes).toBeGreaterThan(1_048_576);
  expect(alone.serversMemoryBytes).toBe(alone.servers[0]!.memoryBytes!);
  expect((await lspq.run(['def', 'main.py:7:total_area'], { cwd: join(FIXTURES, 'py-shapes'), env })).exit).toBe(0);
  // pyright started: gopls, now the least recently used and idle, is stopped for it.
  expect((await serversUntil(['pyright'])).servers.map((s) => s.id)).toEqual(['pyright']);
  const log = (await lspq.run(['daemon', 'logs'], { env })).stdout;
  expect(log).toMatch(/memory over the limit: stopping gopls \(.*go-shapes\), \d+ MB/);
  expect(log).toMatch(
    /warning: servers use \d+ MB, over the 1 MB limit \(LSPQ_MEMORY_LIMIT_MB\); keeping the one in use/,
  );
  // And back: gopls starts again and answers, pyright goes.
  expect((await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: join(FIXTURES, 'go-shapes'), env })).exit).toBe(0);
  expect((await serversUntil(['gopls'])).servers.map((s) => s.id)).toEqual(['gopls']);
});
