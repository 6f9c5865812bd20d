/**
 * The daemon's memory as it answers from one repository's index after
 * another: ten copies of cobra, each indexed by `lspq index` (scip-go),
 * asked `refs --index-only` in turn, and then all ten again. The daemon
 * holds at most a few indexes (the least recently asked is closed), so its
 * memory should level off, not grow with each repository asked about.
 * Prints markdown; `bun bench/index-memory.ts`.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, LSPQ, table, timeCommand, toolsEnv } from './harness';
import { projects, WORK } from './projects';

const REPOSITORIES = 10;
const env = toolsEnv({ LSPQ_SOCKET: join(WORK, 'index-memory-daemon', 'daemon.sock'), LSPQ_TRUST: 'all' });
mkdirSync(join(WORK, 'index-memory-daemon'), { recursive: true, mode: 0o700 });

const cobra = projects().find((p) => p.server === 'gopls')!;
const lspq = (args: string[], cwd: string) => timeCommand([LSPQ, ...args], cwd, env);

/** Ten repositories, each with its own index (made once; kept between runs). */
const roots: string[] = [];
for (let i = 1; i <= REPOSITORIES; i++) {
  const root = join(WORK, 'index-memory', `cobra-${i}`);
  if (!existsSync(join(root, '.lspq', 'index.scip'))) {
    rmSync(root, { recursive: true, force: true });
    cpSync(cobra.root, root, { recursive: true, filter: (src) => !src.includes('/.lspq') });
    const made = await lspq(['index'], root);
    if (made.exit !== 0) throw new Error(`lspq index failed in ${root}`);
  }
  roots.push(root);
}
await lspq(['daemon', 'stop'], WORK);

const daemonMb = async () => {
  const status = await lspq(['daemon', 'status', '--json'], WORK);
  return (JSON.parse(status.stdout) as { memoryBytes: number }).memoryBytes / 1_048_576;
};

const rows: (string | number)[][] = [];
for (const round of [1, 2]) {
  for (const [i, root] of roots.entries()) {
    const asked = await lspq(['refs', 'command.go:278:SetArgs', '--index-only'], root);
    if (asked.exit !== 0) throw new Error(`refs --index-only failed in ${root}`);
    const places = asked.stdout.trim().split('\n').length;
    rows.push([round, i + 1, places, fmt(asked.ms), fmt(await daemonMb())]);
  }
}
await lspq(['daemon', 'stop'], WORK);

console.log(`<!-- bench:index-memory (bun bench/index-memory.ts) -->
### The daemon's memory across ten repositories' indexes (cobra, copied ten times)

${table(['round', 'repository', 'refs from its index', 'ms', 'daemon MB after'], rows)}
<!-- /bench:index-memory -->`);
