/**
 * The daemon's memory over a long life: an agent's daemon answers for
 * hours. Batches of 3,000 warm questions over cobra (def, hover, refs,
 * document symbols, each also with -C 3 and def with --body), asked again
 * and again, the daemon's resident memory sampled after each batch (its own
 * process: gopls's is apart). What a question leaves behind shows as
 * growth after warm-up. Prints markdown; `bun bench/memory.ts [QUESTIONS]`
 * (default 100,000).
 */
import { join } from 'node:path';
import { benchEnv, LSPQ, table, timeCommand } from './harness';
import { position, projects } from './projects';

const TOTAL = Number(process.argv[2] ?? 100_000);
const BATCH = 3_000;
const env = { ...benchEnv, GOFLAGS: '-mod=mod' };

interface Place {
  path: string;
  line: number;
  column: number;
}

/** The daemon's resident memory, from its own status. */
async function daemonMemory(cwd: string): Promise<{ rss: number; heap: number | undefined; pid: number }> {
  const r = await timeCommand([LSPQ, 'daemon', 'status', '--json'], cwd, env);
  const status = JSON.parse(r.stdout) as { pid: number; memoryBytes: number; heapBytes?: number };
  return { rss: status.memoryBytes, heap: status.heapBytes, pid: status.pid };
}

const project = projects().find((p) => p.server === 'gopls')!;
const pos = position(project, project.target);
const refs = JSON.parse(
  (
    await timeCommand(
      [
        LSPQ,
        'refs',
        `${project.target.file}:${pos.line}:${pos.column}`,
        '--json',
        '--limit',
        '200',
        '--timeout',
        '300',
      ],
      project.root,
      env,
    )
  ).stdout,
) as { locations: Place[] };
const places = refs.locations.map((l) => `${join(project.root, l.path)}:${l.line}:${l.column}`);

/** One batch's lines: every kind of question, round the places. */
function batchLines(offset: number): string {
  const kinds = [
    (t: string) => ['def', t],
    (t: string) => ['hover', t],
    (t: string) => ['refs', t, '--limit', '20'],
    (t: string) => ['symbols', t.split(':')[0]!],
    (t: string) => ['def', t, '-C', '3'],
    (t: string) => ['def', t, '--body'],
  ];
  const lines: string[] = [];
  for (let i = 0; i < BATCH; i++) {
    const place = places[(offset + i) % places.length]!;
    lines.push(JSON.stringify(kinds[(offset + i) % kinds.length]!(place)));
  }
  return `${lines.join('\n')}\n`;
}

async function runBatch(offset: number): Promise<void> {
  const proc = Bun.spawn([LSPQ, 'batch', '--jobs', '4'], {
    cwd: project.root,
    env,
    stdin: new TextEncoder().encode(batchLines(offset)),
    stdout: 'pipe',
    stderr: 'ignore',
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const failed = out.split('\n').filter((l) => l && !l.includes('"exit":0') && !l.includes('"exit":1'));
  if (failed.length) throw new Error(`a question failed: ${failed[0]}`);
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(0)} MB`;
const rows: string[][] = [];
let asked = 0;
let warm: number | undefined;
while (asked < TOTAL) {
  await runBatch(asked);
  asked += BATCH;
  const m = await daemonMemory(project.root);
  warm ??= m.rss;
  if (asked === BATCH || asked % (BATCH * 5) === 0 || asked >= TOTAL)
    rows.push([asked.toLocaleString('en'), mb(m.rss), m.heap !== undefined ? mb(m.heap) : '-', mb(m.rss - warm)]);
}
await timeCommand([LSPQ, 'daemon', 'stop'], project.root, env);
console.log(`## The daemon's memory over ${TOTAL.toLocaleString('en')} warm questions (cobra, gopls)\n`);
console.log(table(['questions', 'daemon resident', 'JS heap', 'since the first batch'], rows));
