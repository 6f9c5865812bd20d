/**
 * The navigation benchmark, side by side in one run on real projects:
 * warm lspq against the same request sent straight to the same server by
 * this benchmark's own client and against the floor (bench/floor-client.ts:
 * the smallest client of the same daemon), cold against warm, start-up
 * against a compiled hello-world, and on Go, lspq against gopls's own
 * command line.
 * Prints markdown; `bun bench/run.ts > bench/results.md`.
 */
import { Requests } from '../src/lsp/requests';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient } from '../src/lsp/client';
import { Documents } from '../src/lsp/documents';
import { toServerCharacter } from '../src/lsp/position';
import { locateBinary } from '../src/lsp/servers/locate';
import { BUILTIN_SERVERS } from '../src/lsp/servers/registry';
import { Trust } from '../src/trust/decision';
import { compileBench, fmt, LSPQ, median, p90, repeat, RUNS, table, timeCommand, toolsEnv } from './harness';
import { position, projects, WORK, type Project } from './projects';

const ALL_OPS = ['def', 'refs', 'hover', 'symbols'] as const;
type Op = (typeof ALL_OPS)[number];
/** BENCH_OPS=refs,hover and BENCH_PROJECTS=Python narrow a run while working on one figure. */
const OPS = ALL_OPS.filter((op) => !process.env.BENCH_OPS || process.env.BENCH_OPS.split(',').includes(op));
const COLD_RUNS = 5;
const READY_TIMEOUT_MS = 300_000;

interface ServerSide {
  coldMs: number;
  /** Sends one request of each kind straight to the server. */
  send: Record<Op, () => Promise<unknown>>;
  close: () => Promise<void>;
}

/** The server driven directly: start, open, ready, a first correct definition (its cold time). */
async function rawServer(project: Project): Promise<ServerSide> {
  const env = toolsEnv();
  const spec = BUILTIN_SERVERS.find((s) => s.id === project.server)!;
  const binary = locateBinary(spec, project.root, env, Trust.everything());
  if (!binary) throw new Error(`${spec.id} not found: run scripts/install-servers.sh`);
  const pos = position(project, project.target);
  const start = performance.now();
  const client = await LspClient.start({ spec, binary, root: project.root, env });
  const docs = new Documents(client);
  const text = await docs.sync(pos.path);
  const symbolsPath = join(project.root, project.symbolsFile);
  await docs.sync(symbolsPath);
  const uris = [docs.uri(pos.path), docs.uri(symbolsPath)];
  await client.waitFor(() => client.state.isReady(uris), READY_TIMEOUT_MS, 'loading');
  const line = text.split('\n')[pos.line - 1]!;
  const textDocument = { uri: docs.uri(pos.path) };
  const position_ = { line: pos.line - 1, character: toServerCharacter(line, pos.column - 1, client.encoding) };
  const options = { timeoutMs: READY_TIMEOUT_MS };
  const first = await client.request(Requests.definition, { textDocument, position: position_ }, options);
  const coldMs = performance.now() - start;
  if (!first || (Array.isArray(first) && first.length === 0))
    throw new Error(`${spec.id}: no definition for the benchmark target`);
  const send: Record<Op, () => Promise<unknown>> = {
    def: () => client.request(Requests.definition, { textDocument, position: position_ }, options),
    refs: () =>
      client.request(
        Requests.references,
        { textDocument, position: position_, context: { includeDeclaration: false } },
        options,
      ),
    hover: () => client.request(Requests.hover, { textDocument, position: position_ }, options),
    symbols: () => client.request(Requests.documentSymbol, { textDocument: { uri: docs.uri(symbolsPath) } }, options),
  };
  return { coldMs, send, close: () => client.shutdown() };
}

/**
 * Warm figures, interleaved: one request straight to the server, one whole
 * floor-client command, one whole lspq command, and again, so all three see
 * the same machine (this VM's speed drifts by a third over minutes). Each
 * measurement starts from a quiet machine (SETTLE_MS) and the order
 * rotates: a server still busy after its own answer (pyright collects
 * garbage after references) would otherwise slow whichever always came next.
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 50);

type Side = 'server' | 'floor' | 'lspq';

async function warmSideBySide(
  project: Project,
  raw: ServerSide,
  floor: string[],
  op: Op,
): Promise<Record<Side, number[]>> {
  const argv = [LSPQ, ...lspqArgs(project, op)];
  const floorArgv = [...floor, ...lspqArgs(project, op)];
  await raw.send[op]();
  const [viaLspq, viaFloor] = [await timeCommand(argv, project.root), await timeCommand(floorArgv, project.root)];
  if (viaFloor.stdout !== viaLspq.stdout)
    throw new Error(`the floor client's answer differs from lspq's:\n${viaFloor.stdout}\n${viaLspq.stdout}`);
  const times: Record<Side, number[]> = { server: [], floor: [], lspq: [] };
  const measure: Record<Side, () => Promise<number>> = {
    server: async () => {
      const t = performance.now();
      await raw.send[op]();
      return performance.now() - t;
    },
    floor: async () => (await timeCommand(floorArgv, project.root)).ms,
    lspq: async () => (await timeCommand(argv, project.root)).ms,
  };
  const order: Side[] = ['server', 'floor', 'lspq'];
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < order.length; k++) {
      const side = order[(i + k) % order.length]!;
      await Bun.sleep(SETTLE_MS);
      times[side].push(await measure[side]());
    }
  }
  return times;
}

function lspqArgs(project: Project, op: Op): string[] {
  const pos = position(project, project.target);
  return op === 'symbols' ? ['symbols', project.symbolsFile] : [op, `${project.target.file}:${pos.line}:${pos.column}`];
}

/**
 * Cold runs after one unmeasured start, so lspq and the server's own cold
 * start both find the servers' disk caches (gopls, clangd's index) filled.
 * The two alternate, one of each in turn, so both see the same machine;
 * pyright's own cold start alone varies by half a second between runs.
 */
async function coldSideBySide(project: Project): Promise<{ server: number[]; lspq: number[] }> {
  await timeCommand([LSPQ, ...lspqArgs(project, 'def')], project.root);
  const server: number[] = [];
  const lspq: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    await timeCommand([LSPQ, 'daemon', 'stop'], project.root);
    const r = await timeCommand([LSPQ, ...lspqArgs(project, 'def')], project.root);
    if (r.exit !== 0) throw new Error(`cold lspq def failed in ${project.root}`);
    lspq.push(r.ms);
    await timeCommand([LSPQ, 'daemon', 'stop'], project.root);
    const raw = await rawServer(project);
    server.push(raw.coldMs);
    await raw.close();
  }
  return { server, lspq };
}

const signed = (ms: number) => `${ms >= 0 ? '+' : '−'}${fmt(Math.abs(ms))}`;

async function startup(): Promise<string> {
  const hello = join(WORK, 'hello');
  writeFileSync(`${hello}.ts`, "console.log('hello');\n");
  await compileBench(`${hello}.ts`, hello);
  const h: number[] = [];
  const l: number[] = [];
  // Interleaved, like every pair of figures here.
  for (let i = 0; i < RUNS * 3; i++) {
    h.push((await timeCommand([hello], WORK)).ms);
    l.push((await timeCommand([LSPQ, '--version'], WORK)).ms);
  }
  return table(
    ['process', 'median ms', 'p90 ms'],
    [
      ['compiled Bun hello-world (compiled as lspq is)', fmt(median(h)), fmt(p90(h))],
      ['`lspq --version`', fmt(median(l)), fmt(p90(l))],
      ['ratio', `**${(median(l) / median(h)).toFixed(2)}x**`, ''],
    ],
  );
}

/** The floor client, compiled as lspq is, with the build id of the daemon it asks. */
async function floorClient(): Promise<string[]> {
  const out = join(WORK, 'floor-client');
  await compileBench(join(import.meta.dir, 'floor-client.ts'), out);
  const version = (await timeCommand([LSPQ, '--version'], WORK)).stdout;
  const build = /\(([0-9a-z]+)\)/.exec(version)?.[1];
  if (!build) throw new Error(`no build id in 'lspq --version': ${version}`);
  return [out, build];
}

function goplsDaemons(): Set<string> {
  const out = Bun.spawnSync(['pgrep', '-f', 'gopls.*-listen']).stdout.toString();
  return new Set(out.split('\n').filter(Boolean));
}

async function goplsComparison(project: Project, warmDef: number[]): Promise<string> {
  const pos = position(project, project.target);
  const where = `${project.target.file}:${pos.line}:${pos.column}`;
  const gopls = join(WORK, '..', '..', '.tools', 'bin', 'gopls');
  const env = toolsEnv();
  const before = goplsDaemons();
  const oneShot = await repeat(5, async () => (await timeCommand([gopls, 'definition', where], project.root, env)).ms);
  await timeCommand([gopls, '-remote=auto', 'definition', where], project.root, env);
  const remote = await repeat(
    5,
    async () => (await timeCommand([gopls, '-remote=auto', 'definition', where], project.root, env)).ms,
  );
  // gopls -remote=auto leaves its own daemon behind; stop the one this run started.
  for (const pid of goplsDaemons()) if (!before.has(pid)) process.kill(Number(pid), 'SIGTERM');
  const w = median(warmDef);
  return table(
    ['command', 'median ms', 'lspq warm is'],
    [
      ['`lspq def` (warm daemon)', fmt(w), ''],
      ['`gopls definition` (one-shot)', fmt(median(oneShot)), `**${(median(oneShot) / w).toFixed(0)}x faster**`],
      [
        '`gopls -remote=auto definition` (gopls daemon)',
        fmt(median(remote)),
        `**${(median(remote) / w).toFixed(0)}x faster**`,
      ],
    ],
  );
}

async function daemonMemory(): Promise<string> {
  await timeCommand([LSPQ, 'daemon', 'restart'], WORK);
  const status = JSON.parse((await timeCommand([LSPQ, 'daemon', 'status', '--json'], WORK)).stdout) as {
    memoryBytes: number;
    servers: unknown[];
  };
  return `Daemon memory with no server running: **${(status.memoryBytes / 1_048_576).toFixed(0)} MB** RSS (${status.servers.length} servers).`;
}

async function main(): Promise<void> {
  const sections: string[] = [
    `Runs per figure: ${RUNS} (cold: ${COLD_RUNS}). Machine: ${navigator.hardwareConcurrency} cores. All times are wall-clock milliseconds of whole processes for lspq, and of the request alone for the server.`,
  ];
  const list = projects().filter(
    (p) => !process.env.BENCH_PROJECTS || process.env.BENCH_PROJECTS.split(',').some((name) => p.lang.includes(name)),
  );
  // A narrowed run measures the warm figures only.
  const whole = !process.env.BENCH_OPS && !process.env.BENCH_PROJECTS;
  if (whole) sections.push('### Start-up\n', await startup());
  const rows: (string | number)[][] = [];
  const coldRows: (string | number)[][] = [];
  const floor = await floorClient();
  let goSection = '';
  for (const project of list) {
    const cold = whole ? await coldSideBySide(project) : { server: [], lspq: [] };
    // Both servers of the warm comparison start fresh from here, the raw one first, as in a narrowed run:
    // a daemon server left from the cold runs answered pyright's references about 6 ms slower.
    await timeCommand([LSPQ, 'daemon', 'stop'], project.root);
    const raw = await rawServer(project);
    const warm = {} as Record<Op, number[]>;
    for (const op of OPS) {
      const t = await warmSideBySide(project, raw, floor, op);
      warm[op] = t.lspq;
      rows.push([
        project.lang,
        op,
        fmt(median(t.server)),
        fmt(median(t.floor)),
        fmt(median(t.lspq)),
        fmt(p90(t.lspq)),
        signed(median(t.lspq) - median(t.server)),
        signed(p90(t.lspq) - p90(t.server)),
        signed(median(t.floor) - median(t.server)),
        signed(median(t.lspq) - median(t.floor)),
      ]);
    }
    await raw.close();
    await timeCommand([LSPQ, 'daemon', 'stop'], project.root);
    if (!whole) continue;
    coldRows.push([
      project.lang,
      fmt(median(cold.server)),
      fmt(median(cold.lspq)),
      signed(median(cold.lspq) - median(cold.server)),
      fmt(median(warm.def)),
      `**${(median(cold.lspq) / median(warm.def)).toFixed(0)}x**`,
    ]);
    if (project.server === 'gopls') goSection = await goplsComparison(project, warm.def);
  }
  sections.push(
    '### Warm: lspq against the server itself\n',
    table(
      [
        'project',
        'query',
        'server median',
        'floor median',
        'lspq median',
        'lspq p90',
        'lspq over server (median)',
        'over (p90)',
        'floor over server',
        'lspq over floor',
      ],
      rows,
    ),
  );
  if (!whole) {
    console.log(sections.join('\n\n'));
    return;
  }
  sections.push(
    '### Cold against warm\n',
    table(
      [
        'project',
        'server cold to a correct def',
        'lspq cold def (daemon + server start)',
        'lspq over server',
        'lspq warm def',
        'cold / warm',
      ],
      coldRows,
    ),
  );
  sections.push("### lspq against gopls's own command line (cobra)\n", goSection);
  sections.push('### Daemon\n', await daemonMemory());
  await timeCommand([LSPQ, 'daemon', 'stop'], WORK);
  console.log(sections.join('\n\n'));
  rmSync(join(WORK, 'hello.ts'), { force: true });
}

await main();
