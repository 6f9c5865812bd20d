/**
 * The process table on both paths: /proc (Linux) and ps (macOS, any
 * system without /proc). The ps path runs here too, against this
 * machine's real ps, and with ps's output as macOS prints it.
 */
import { expect, test } from 'bun:test';
import { treeMemory } from '../../src/lsp/memory';
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import {
  commandLine,
  isZombie,
  ProcessProbe,
  parsePs,
  parseStat,
  processTable,
  runPs,
  startedAt,
} from '../../src/common/process-table';

const MACOS_PS = `    1     0  13712 Ss
  412     1   9824 S
 5120   412 120448 S+
 5121  5120  88200 Z
`;

test('ps output as macOS prints it: parents, memory in bytes, states', () => {
  const table = parsePs(MACOS_PS);
  expect([...table.keys()]).toEqual([1, 412, 5120, 5121]);
  expect(table.get(5120)).toEqual({ ppid: 412, rss: 120448 * 1024, state: 'S+' });
  expect(treeMemory(412, table)).toBe((9824 + 120448 + 88200) * 1024);
  expect(treeMemory(99999, table)).toBe(0);
  expect(isZombie(5121, 'darwin', (args) => (args.at(-1) === '5121' ? 'Z\n' : 'S\n'))).toBe(true);
  expect(isZombie(5120, 'darwin', (args) => (args.at(-1) === '5121' ? 'Z\n' : 'S\n'))).toBe(false);
});

test('a /proc stat line whose command holds spaces and parentheses', () => {
  const stat = '4242 (tsserver (x) y) S 4200 4242 4242 0 -1 4194560 1507 0 0 0 12 3 0 0 20 0 11 0 987654 1234 5';
  expect(parseStat(stat)).toEqual({ ppid: 4200, state: 'S', started: '987654' });
});

test('this process, from /proc and from the real ps: the same parent, some memory', () => {
  for (const platform of ['linux', 'darwin'] as const) {
    const table = processTable(platform, runPs);
    const me = table?.get(process.pid);
    expect(me?.ppid).toBe(process.ppid);
    expect(me!.rss).toBeGreaterThan(1_000_000);
    expect(isZombie(process.pid, platform, runPs)).toBe(false);
    expect(commandLine(process.pid, platform, runPs)?.[0]).toContain('bun');
  }
});

test('no ps and no /proc: nothing is known, nothing is made up', () => {
  expect(processTable('darwin', () => undefined)).toBeUndefined();
  expect(commandLine(1, 'darwin', () => undefined)).toBeUndefined();
});

test.skipIf(process.platform !== 'linux')(
  'a probe of a server process: running, then gone once killed; its /proc file closed',
  async () => {
    const openStats = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith('/stat');
        } catch {
          return false;
        }
      }).length;
    const before = openStats();
    const child = spawn('sleep', ['30']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const fallback = () => {
      throw new Error('the fallback is for systems without /proc');
    };
    const probe = new ProcessProbe(child.pid!, fallback);
    expect([probe.runs(), probe.runs()]).toEqual([true, true]);
    child.kill('SIGKILL');
    await exited;
    expect([probe.runs(), probe.runs()]).toEqual([false, false]);
    probe.close();
    probe.close();
    expect(openStats()).toBe(before);
    // Where the file cannot be opened (no /proc, or the process is gone already), the fallback answers.
    expect(new ProcessProbe(2 ** 22 + 7, () => true).runs()).toBe(true);
  },
);

test('a start time, from /proc and from the real ps: the same each time asked, none for a process that is gone', async () => {
  for (const platform of ['linux', 'darwin'] as const) {
    const mine = startedAt(process.pid, platform, runPs);
    expect(mine).toBeDefined();
    expect(startedAt(process.pid, platform, runPs)).toBe(mine!);
    const gone = Bun.spawn(['true']);
    await gone.exited;
    expect(startedAt(gone.pid, platform, runPs)).toBeUndefined();
  }
});
