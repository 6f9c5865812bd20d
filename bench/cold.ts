/**
 * Where a cold first answer's time goes, step by step, from the daemon's
 * log with every LSP message traced (LSPQ_TRACE_LSP=1, which adds its own
 * small cost): the command until the daemon listens (the command's start,
 * the daemon's spawn and its bundle), the daemon until the server is
 * spawned (configuration, root and binary), the server's initialize, what
 * lspq waits for before asking (readiness, opening the file), the request
 * itself, and the answer back to the command's exit. The server's own part
 * is initialize + the wait + the request; lspq's is the rest.
 * Prints markdown; `bun bench/cold.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, LSPQ, median, table, timeCommand, toolsEnv } from './harness';
import { position, projects, WORK } from './projects';

const RUNS = 5;
const socket = join(WORK, 'cold-daemon', 'daemon.sock');
const env = toolsEnv({ LSPQ_SOCKET: socket, LSPQ_TRACE_LSP: '1' });
const log = join(WORK, 'cold-daemon', 'daemon.log');

interface Steps {
  toListening: number;
  toSpawn: number;
  initialize: number;
  waitAndOpen: number;
  request: number;
  toExit: number;
  total: number;
}

const at = (line: string) => Date.parse(line.slice(0, 24));

/** The timeline of the one cold question asked since `t0`, read from the daemon's log. */
function timeline(t0: number, t1: number): Steps {
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => at(l) >= t0 - 1);
  const find = (re: RegExp) => {
    const line = lines.find((l) => re.test(l));
    if (!line) throw new Error(`no log line matching ${re}`);
    return at(line);
  };
  const listening = find(/ listening on /);
  const spawned = find(/ starting /);
  const initSent = find(/Sending request 'initialize/);
  const initBack = find(/Received response 'initialize/);
  const asked = find(/Sending request 'textDocument\/definition/);
  const answered = find(/Received response 'textDocument\/definition/);
  const done = find(/ def \(exit 0\) answered in /);
  return {
    toListening: listening - t0,
    toSpawn: spawned - listening,
    initialize: initBack - initSent,
    waitAndOpen: asked - initBack,
    request: answered - asked,
    toExit: t1 - done,
    total: t1 - t0,
  };
}

async function main(): Promise<void> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(WORK, 'cold-daemon'), { recursive: true, mode: 0o700 });
  const rows: (string | number)[][] = [];
  for (const project of projects()) {
    const pos = position(project, project.target);
    const args = ['def', `${project.target.file}:${pos.line}:${pos.column}`];
    // One unmeasured start, so the servers' disk caches are as warm as in the other benchmarks.
    await timeCommand([LSPQ, ...args], project.root, env);
    const runs: Steps[] = [];
    for (let i = 0; i < RUNS; i++) {
      await timeCommand([LSPQ, 'daemon', 'stop'], project.root, env);
      const t0 = Date.now();
      const r = await timeCommand([LSPQ, ...args], project.root, env);
      const t1 = Date.now();
      if (r.exit !== 0) throw new Error(`cold def failed in ${project.root}`);
      runs.push(timeline(t0, t1));
    }
    const m = (k: keyof Steps) => median(runs.map((s) => s[k]));
    const lspqPart = m('toListening') + m('toSpawn') + m('toExit');
    rows.push([
      project.lang,
      fmt(m('toListening')),
      fmt(m('toSpawn')),
      fmt(m('initialize')),
      fmt(m('waitAndOpen')),
      fmt(m('request')),
      fmt(m('toExit')),
      fmt(m('total')),
      `+${fmt(lspqPart)}`,
    ]);
  }
  await timeCommand([LSPQ, 'daemon', 'stop'], WORK, env);
  console.log('#### A cold first answer, step by step (ms, medians)\n');
  console.log(
    table(
      [
        'project',
        'command until the daemon listens',
        'daemon until the server is spawned',
        'server: initialize',
        'server: ready and file open',
        'server: the request',
        'answer to exit',
        'total',
        "lspq's part",
      ],
      rows,
    ),
  );
}

await main();
