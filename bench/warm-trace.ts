/**
 * Where a warm question's time goes inside the daemon, from the line it
 * logs for each answer: the connection until its request line is whole,
 * the line until the command runs, the servers' own time (each request
 * from sent to answered), and the daemon's own part of the run (the rest:
 * the command path, the root, trust, the document's sync, converting and
 * rendering). One question at a time, so the servers' time is this
 * question's alone. Beside it, the whole lspq process and a compiled
 * hello-world, measured interleaved with it; with LSPQ_BENCH_BEFORE=BINARY
 * (an earlier build), that build too, each with a daemon of its own.
 * Prints markdown; `bun bench/warm-trace.ts`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { benchEnv, compileBench, fmt, interleaved, LSPQ, median, p90, RUNS, table, timeCommand } from './harness';
import { position, projects, WORK } from './projects';

const OPS = ['def', 'hover', 'refs'] as const;

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

/** A build under measure: its binary, its own daemon (socket), and that daemon's log. */
interface Build {
  name: string;
  binary: string;
  env: Record<string, string>;
  log: string;
}

function buildAt(name: string, binary: string, env: Record<string, string>): Build {
  return { name, binary, env, log: join(dirname(env.LSPQ_SOCKET!), 'daemon.log') };
}

/** The parts of every answer to `op` logged after the first `skip` characters of the log. */
function partsSince(build: Build, skip: number, op: string): Parts[] {
  return readFileSync(build.log, 'utf8')
    .slice(skip)
    .split('\n')
    .flatMap((l) => {
      const m = LINE.exec(l);
      if (!m || m[1] !== op) return [];
      const [total, server, own, toLine, toRun] = m.slice(2).map(Number) as [number, number, number, number, number];
      return [{ total, server, own, toLine, toRun }];
    });
}

const logSize = (build: Build) => {
  try {
    return readFileSync(build.log, 'utf8').length;
  } catch {
    return 0;
  }
};

const builds = [buildAt('this build', LSPQ, benchEnv)];
if (process.env.LSPQ_BENCH_BEFORE) {
  const socket = join(mkdtempSync(join(tmpdir(), 'lspq-bench-before-')), 'daemon.sock');
  builds.push(buildAt('before', process.env.LSPQ_BENCH_BEFORE, { ...benchEnv, LSPQ_SOCKET: socket }));
}

// Fetched first: the projects' folder is where the hello-world is compiled too.
const all = projects();
const hello = join(WORK, 'hello-trace');
writeFileSync(`${hello}.ts`, "console.log('hello');\n");
await compileBench(`${hello}.ts`, hello);

const rows: (string | number)[][] = [];
for (const project of all) {
  const pos = position(project, project.target);
  const target = `${pos.path}:${pos.line}:${pos.column}`;
  // Cold once, then warm.
  for (const b of builds) await timeCommand([b.binary, 'def', target], project.root, b.env);
  for (const op of OPS) {
    const from = builds.map(logSize);
    const [helloMs, ...lspq] = await interleaved([
      async () => (await timeCommand([hello], project.root)).ms,
      ...builds.map((b) => async () => (await timeCommand([b.binary, op, target], project.root, b.env)).ms),
    ]);
    builds.forEach((b, k) => {
      const parts = partsSince(b, from[k]!, op);
      const pick = (key: keyof Parts) => parts.map((p) => p[key]);
      const daemon = parts.map((p) => p.toLine + p.toRun + p.own);
      rows.push([
        project.lang,
        op,
        b.name,
        fmt(median(lspq[k]!)),
        fmt(median(helloMs!)),
        fmt(median(pick('server'))),
        fmt(median(pick('toLine'))),
        fmt(median(pick('toRun'))),
        `**${fmt(median(pick('own')))}**`,
        fmt(p90(pick('own'))),
        fmt(median(daemon)),
      ]);
    });
  }
}
for (const b of builds) await timeCommand([b.binary, 'daemon', 'stop'], WORK, b.env);

console.log(`<!-- bench:warm-trace (bun bench/warm-trace.ts) -->
### A warm question inside the daemon (ms, medians of ${RUNS} runs a row)

${table(
  [
    'project',
    'query',
    'build',
    'lspq (whole process)',
    'compiled hello-world',
    'server',
    'connection to line',
    'line to run',
    'the run less the server',
    'p90',
    'all of the daemon but the server',
  ],
  rows,
)}
<!-- /bench:warm-trace -->`);
