/**
 * A server is dead when a process it answers through dies: typescript-
 * language-server lives on when its tsserver is killed or runs out of its
 * heap, and would answer "nothing found" from then on. lspq stops it as
 * crashed: a question that met the death fails with exit 3 naming it,
 * never exit 1; the next question gets a fresh server and the right answer.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('dead-workers');
writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
writeFileSync(join(dir, 'a.ts'), 'export const x = 1;\nexport const y = x + 1;\n');
const TSLS = ['--server', 'typescript-language-server'];
const DEF = 'a.ts:1:14: export const x = 1;\n';
const LOST =
  /^lspq: typescript-language-server lost a process it answers through \(((out of its memory: )?\[tsserver\] Exited\. Code: \S+\. Signal: \S+|its worker process is gone)\), so it was stopped \(root .*\); the next command starts it again\n$/;

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

/** The tsserver processes the daemon's typescript-language-server runs. */
function tsservers(): number[] {
  const r = Bun.spawnSync(['pgrep', '-f', `tsserver.js.*`], { stdout: 'pipe' });
  return r.stdout.toString().split('\n').filter(Boolean).map(Number);
}

async function serverPid(): Promise<number | undefined> {
  const status = await lspq.json<{ servers: { id: string; root: string; pid: number }[] }>(['daemon', 'status']);
  return status.servers.find((s) => s.id === 'typescript-language-server' && s.root === dir)?.pid;
}

async function logsSay(text: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await lspq.run(['daemon', 'logs'])).stdout.includes(text)) return;
    await Bun.sleep(100);
  }
  throw new Error(`the daemon's log never said: ${text}`);
}

test('a live tsserver that finds nothing: exit 1 each time, cold and warm, and the same server stays', async () => {
  expect(await lspq.run(['def', 'a.ts:2:x', ...TSLS], { cwd: dir })).toEqual({ stdout: DEF, stderr: '', exit: 0 });
  const before = await serverPid();
  for (let i = 0; i < 2; i++) {
    expect(await lspq.run(['hover', 'a.ts:1:1', ...TSLS], { cwd: dir })).toEqual({
      stdout: '',
      stderr: 'lspq: no hover information for export (a.ts:1:1)\n',
      exit: 1,
    });
    const refs = await lspq.run(['refs', 'a.ts:2:y', ...TSLS], { cwd: dir });
    expect([refs.exit, refs.stdout]).toEqual([1, '']);
  }
  expect(await serverPid()).toBe(before!);
  expect(await lspq.run(['def', 'a.ts:2:x', ...TSLS], { cwd: dir })).toEqual({ stdout: DEF, stderr: '', exit: 0 });
});

test('tsserver killed with -9: the question beside it fails naming the crash or is answered right; then a fresh server answers', async () => {
  for (let round = 0; round < 2; round++) {
    expect(await lspq.run(['def', 'a.ts:2:x', ...TSLS], { cwd: dir })).toEqual({ stdout: DEF, stderr: '', exit: 0 });
    const before = await serverPid();
    const children = Bun.spawnSync(['pgrep', '-P', String(before)], { stdout: 'pipe' })
      .stdout.toString()
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .filter((pid) => tsservers().includes(pid));
    expect(children.length).toBe(1);
    process.kill(children[0]!, 'SIGKILL');
    // At once: never "nothing found".
    const beside = await lspq.run(['refs', 'a.ts:1:x', ...TSLS], { cwd: dir });
    if (beside.exit === 0) expect(beside.stdout).toBe('a.ts:2:18: export const y = x + 1;  (in y)\n');
    else expect([beside.exit, beside.stderr]).toEqual([3, expect.stringMatching(LOST)]);
    await logsSay('a process it runs died ([tsserver] Exited. Code: null. Signal: SIGKILL)');
    expect(await lspq.run(['def', 'a.ts:2:x', ...TSLS], { cwd: dir })).toEqual({ stdout: DEF, stderr: '', exit: 0 });
    const after = await serverPid();
    expect(after).not.toBe(before);
  }
});

test('tsserver out of its heap: exit 3 naming the crash, never "nothing found"', async () => {
  // A root of its own: lspq leaves a server off after three crashes for one root in a few minutes.
  const oom = scratchDir('dead-workers-oom');
  writeFileSync(join(oom, 'tsconfig.json'), '{}\n');
  writeFileSync(join(oom, 'a.ts'), 'export const x = 1;\nexport const y = x + 1;\n');
  const config = join(lspq.dir, 'config', 'lspq');
  mkdirSync(config, { recursive: true });
  // A heap of 2 MB: tsserver runs out of it as it starts.
  writeFileSync(
    join(config, 'lsp.json'),
    JSON.stringify({ 'typescript-language-server': { initializationOptions: { maxTsServerMemory: 2 } } }),
  );
  try {
    for (let i = 0; i < 2; i++) {
      const r = await lspq.run(['def', 'a.ts:2:x', ...TSLS], { cwd: oom });
      expect([r.exit, r.stdout, r.stderr]).toEqual([3, '', expect.stringMatching(LOST)]);
    }
    rmSync(join(config, 'lsp.json'));
    expect(await lspq.run(['def', 'a.ts:2:x', ...TSLS], { cwd: oom })).toEqual({ stdout: DEF, stderr: '', exit: 0 });
  } finally {
    rmSync(join(config, 'lsp.json'), { force: true });
    rmSync(oom, { recursive: true, force: true });
  }
});
