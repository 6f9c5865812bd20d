/**
 * Many questions: N hovers over a real project (every reference of a
 * symbol in cobra, hovered) asked as one `lspq batch`, as N separate
 * commands, and straight to gopls by this benchmark's own client, one after
 * the other; then 50 questions from 10 processes at once over three
 * projects and languages, with the p50 and p99 of a command's wall time.
 * Prints markdown; `bun bench/batch.ts`.
 */
import { Requests } from '../src/lsp/requests';
import { join } from 'node:path';
import type { HoverParams } from 'vscode-languageserver-protocol';
import { LspClient } from '../src/lsp/client';
import { Documents } from '../src/lsp/documents';
import { toServerCharacter } from '../src/lsp/position';
import { locateBinary } from '../src/lsp/servers/locate';
import { BUILTIN_SERVERS } from '../src/lsp/servers/registry';
import { Trust } from '../src/trust/decision';
import { benchEnv, fmt, LSPQ, median, quantile, RUNS, table, timeCommand, toolsEnv } from './harness';
import { position, projects, type Project, type Query } from './projects';

const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 50);
const env = { ...benchEnv, GOFLAGS: '-mod=mod' };

interface Place {
  path: string;
  line: number;
  column: number;
}

/** What is hovered: every reference of cobra's Command type, a few hundred places across the project. */
const HOVERED: Query = { file: 'command.go', line: /^type Command struct/, name: 'Command' };
const MAX_PLACES = 300;

/** The places to hover: every reference of the symbol (lspq refs), as absolute paths. */
async function places(project: Project, what: Query): Promise<Place[]> {
  const pos = position(project, what);
  const r = await timeCommand(
    [
      LSPQ,
      'refs',
      `${what.file}:${pos.line}:${pos.column}`,
      '--json',
      '--limit',
      String(MAX_PLACES),
      '--timeout',
      '300',
    ],
    project.root,
    env,
  );
  const refs = JSON.parse(r.stdout) as { locations: Place[] };
  return refs.locations.map((l) => ({ ...l, path: join(project.root, l.path) }));
}

/** A whole batch process over `lines`, stdin from memory. */
async function timeBatch(lines: string, cwd: string, jobs: number): Promise<{ ms: number; answers: number }> {
  const start = performance.now();
  const proc = Bun.spawn([LSPQ, 'batch', '--jobs', String(jobs)], {
    cwd,
    env,
    stdin: new TextEncoder().encode(lines),
    stdout: 'pipe',
    stderr: 'ignore',
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return { ms: performance.now() - start, answers: out.split('\n').filter(Boolean).length };
}

async function hoverRows(): Promise<(string | number)[][]> {
  const [, go] = projects();
  const project = go!;
  const targets = await places(project, HOVERED);
  const n = targets.length;
  const lines = targets.map((p) => `${JSON.stringify(['hover', `${p.path}:${p.line}:${p.column}`])}\n`).join('');
  // The server straight: the same hovers, one after the other, on one connection.
  const spec = BUILTIN_SERVERS.find((s) => s.id === 'gopls')!;
  const rawEnv = toolsEnv({ GOFLAGS: '-mod=mod' });
  const client = await LspClient.start({
    spec,
    binary: locateBinary(spec, project.root, rawEnv, Trust.everything())!,
    root: project.root,
    env: rawEnv,
  });
  const docs = new Documents(client);
  const params: HoverParams[] = [];
  for (const p of targets) {
    const text = await docs.sync(p.path);
    const line = text.split('\n')[p.line - 1]!;
    params.push({
      textDocument: { uri: docs.uri(p.path) },
      position: { line: p.line - 1, character: toServerCharacter(line, p.column - 1, client.encoding) },
    });
  }
  const serverAll = async () => {
    const t = performance.now();
    for (const q of params) await client.request(Requests.hover, q, { timeoutMs: 300_000 });
    return performance.now() - t;
  };
  await serverAll();
  await timeBatch(lines, project.root, 4);
  const commandsAll = async () => {
    const t = performance.now();
    for (const p of targets) await timeCommand([LSPQ, 'hover', `${p.path}:${p.line}:${p.column}`], project.root, env);
    return performance.now() - t;
  };
  const times: Record<string, number[]> = { server: [], batch1: [], batch4: [], commands: [] };
  const sides: [string, () => Promise<number>][] = [
    ['server', serverAll],
    ['batch1', async () => (await timeBatch(lines, project.root, 1)).ms],
    ['batch4', async () => (await timeBatch(lines, project.root, 4)).ms],
    ['commands', commandsAll],
  ];
  const runs = Math.max(3, Math.round(RUNS / 4));
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < sides.length; k++) {
      const [name, measure] = sides[(i + k) % sides.length]!;
      await Bun.sleep(SETTLE_MS);
      times[name]!.push(await measure());
    }
  }
  await client.shutdown();
  const per = (name: string) => median(times[name]!) / n;
  const server = per('server');
  const row = (what: string, name: string) => [
    what,
    fmt(median(times[name]!)),
    fmt(per(name)),
    name === 'server' ? '' : `${per(name) - server >= 0 ? '+' : '−'}${Math.abs(per(name) - server).toFixed(2)}`,
  ];
  return [
    [`${n} hovers (the references of \`${HOVERED.name}\` in cobra)`, '', '', ''],
    row('straight to gopls, one after the other', 'server'),
    row('`lspq batch --jobs 1` (one process)', 'batch1'),
    row('`lspq batch` (--jobs 4, one process)', 'batch4'),
    row(`${n} separate \`lspq hover\` commands`, 'commands'),
  ];
}

/** 50 questions from 10 processes at once over three projects and languages: each command's wall time. */
async function concurrencyRow(): Promise<(string | number)[]> {
  const [ts, go, py] = projects();
  const questions = [ts!, go!, py!].flatMap((p) => {
    const pos = position(p, p.target);
    const at = `${p.target.file}:${pos.line}:${pos.column}`;
    return [
      { cwd: p.root, args: ['def', at] },
      { cwd: p.root, args: ['hover', at] },
      { cwd: p.root, args: ['refs', at] },
      { cwd: p.root, args: ['symbols', p.symbolsFile] },
    ];
  });
  for (const q of questions) await timeCommand([LSPQ, ...q.args, '--timeout', '300'], q.cwd, env); // warm
  const times: number[] = [];
  let failed = 0;
  for (let round = 0; round < Math.max(1, Math.round(RUNS / 10)); round++) {
    let next = 0;
    const worker = async () => {
      while (next < 50) {
        const q = questions[next++ % questions.length]!;
        const r = await timeCommand([LSPQ, ...q.args], q.cwd, env);
        if (r.exit !== 0) failed++;
        times.push(r.ms);
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
  }
  return [
    '50 questions, 10 processes at once, 3 projects (TypeScript, Go, Python), warm',
    times.length,
    fmt(quantile(times, 0.5)),
    fmt(quantile(times, 0.99)),
    failed,
  ];
}

const hover = await hoverRows();
const concurrency = await concurrencyRow();
await timeCommand([LSPQ, 'daemon', 'stop'], process.cwd(), env);
console.log(
  [
    `Machine: ${navigator.hardwareConcurrency} cores. Times are wall-clock milliseconds: whole processes for lspq, the requests alone for the server.\n`,
    '### Many questions: one batch, separate commands, the server itself\n',
    table(['how', 'total ms (median)', 'per question ms', 'per question over the server'], hover),
    '\n### Many commands at once\n',
    table(['load', 'commands timed', 'p50 ms', 'p99 ms', 'failed'], [concurrency]),
  ].join('\n'),
);
