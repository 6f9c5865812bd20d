/**
 * Where a warm question's time goes inside the daemon, from the line it
 * logs for each answer: the connection until its request line is whole,
 * the line until the command runs, the servers' own time (each request
 * from sent to answered), and the daemon's own part of the run (the rest:
 * the road, the root, trust, the document's sync, converting and
 * rendering). One question at a time, so the servers' time is this
 * question's alone. Beside it, the whole lspq process and a compiled
 * hello-world, measured interleaved with it.
 * Prints markdown; `bun bench/warm-trace.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { benchEnv, compileBench, fmt, interleaved, LSPQ, median, p90, RUNS, table, timeCommand } from './harness';
import { position, projects, WORK } from './projects';

const OPS = ['def', 'hover', 'refs'] as const;
const log = join(dirname(benchEnv.LSPQ_SOCKET!), 'daemon.log');

/** One answer's line of the daemon's log, its parts in milliseconds. */
interface Parts {
  total: number;
  server: number;
  own: number;
  toLine: number;
  toRun: number;
}

const LINE =
  / (\w+) \(exit 0\) answered in ([\d.]+) ms \(server ([\d.]+) ms in \d+, own ([\d.]+) ms; connection to line ([\d.]+) ms, line to run ([\d.]+) ms\)/;

/** The parts of every answer to `op` logged after the first `skip` characters of the log. */
function partsSince(skip: number, op: string): Parts[] {
  return readFileSync(log, 'utf8')
    .slice(skip)
    .split('\n')
    .flatMap((l) => {
      const m = LINE.exec(l);
      if (!m || m[1] !== op) return [];
      const [total, server, own, toLine, toRun] = m.slice(2).map(Number) as [number, number, number, number, number];
      return [{ total, server, own, toLine, toRun }];
    });
}

const logSize = () => {
  try {
    return readFileSync(log).length;
  } catch {
    return 0;
  }
};

const hello = join(WORK, 'hello-trace');
writeFileSync(`${hello}.ts`, "console.log('hello');\n");
await compileBench(`${hello}.ts`, hello);

const rows: (string | number)[][] = [];
for (const project of projects()) {
  const pos = position(project, project.target);
  const target = `${pos.path}:${pos.line}:${pos.column}`;
  // Cold once, then warm.
  await timeCommand([LSPQ, 'def', target], project.root);
  for (const op of OPS) {
    const from = logSize();
    const [lspq, helloMs] = await interleaved([
      async () => (await timeCommand([LSPQ, op, target], project.root)).ms,
      async () => (await timeCommand([hello], project.root)).ms,
    ]);
    const parts = partsSince(from, op);
    const pick = (k: keyof Parts) => parts.map((p) => p[k]);
    const daemon = parts.map((p) => p.toLine + p.toRun + p.own);
    rows.push([
      project.lang,
      op,
      fmt(median(lspq!)),
      fmt(median(helloMs!)),
      fmt(median(pick('server'))),
      fmt(median(pick('toLine'))),
      fmt(median(pick('toRun'))),
      fmt(median(pick('own'))),
      `**${fmt(median(daemon))}**`,
      fmt(p90(daemon)),
    ]);
  }
}
await timeCommand([LSPQ, 'daemon', 'stop'], WORK);

console.log(`<!-- bench:warm-trace (bun bench/warm-trace.ts) -->
### A warm question inside the daemon (ms, medians of ${RUNS} runs a row)

${table(
  [
    'project',
    'query',
    'lspq (whole process)',
    'compiled hello-world',
    'server',
    'connection to line',
    'line to run',
    'the run less the server',
    "daemon's own part",
    'own part p90',
  ],
  rows,
)}
<!-- /bench:warm-trace -->`);
