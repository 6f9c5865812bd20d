/**
 * A warm `def` in workspace A while workspace B's question meets hostile
 * files, on one daemon: A's latency idle, then during each of B's
 * questions (the daemon's one thread is shared, so whatever B holds it for
 * A waits). B's files: an 8 MB one-line TypeScript file whose every `/`
 * opened a regular expression that never closed (its lexical scan was
 * quadratic), asked through a fake server that never answers a definition
 * (so B stays in flight until its --timeout); a FIFO tsconfig.json beside
 * a package.json linked to /dev/zero (each read blocked or never ended).
 * The goal: A's median during B within its idle median + 50 ms, and no
 * hold of the daemon's thread (LSPQ_WATCH_HOLDS) near 50 ms. This build
 * only (the one before stalls A until B's daemon is killed). Prints
 * markdown; `bun bench/hostile-files.ts` (BENCH_RUNS=20 defs per phase).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fmt, LSPQ, median, ownDaemon, p90, RUNS, table, timeCommand, toolsEnv } from './harness';
import { REPO, WORK } from './projects';

const env = ownDaemon(toolsEnv({ LSPQ_TRUST: 'all', LSPQ_WATCH_HOLDS: '5' }), 'hostile');
const log = join(dirname(env.LSPQ_SOCKET ?? ''), 'daemon.log');
const logLength = () => (existsSync(log) ? readFileSync(log, 'utf8').length : 0);
/** The longest hold of the daemon's thread logged since `from` (LSPQ_WATCH_HOLDS): the longest A could wait. */
function longestHold(from: number): number {
  const held = readFileSync(log, 'utf8')
    .slice(from)
    .matchAll(/held the thread ([0-9.]+) ms/g);
  return Math.max(0, ...[...held].map((m) => Number(m[1])));
}
const a = join(WORK, 'hostile-files', 'a');
if (!existsSync(a)) {
  mkdirSync(a, { recursive: true });
  cpSync(join(REPO, 'test', 'fixtures', 'ts-shapes'), a, { recursive: true });
}
const DEF = ['def', 'src/main.ts:7:totalArea'];

/** Workspace B, made anew: the files of one kind of hostile question. */
function workspaceB(kind: 'long line' | 'fifo and /dev/zero'): { dir: string; args: string[] } {
  const dir = join(WORK, 'hostile-files', kind.replace(/\W+/g, '-'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (kind === 'long line') {
    writeFileSync(join(dir, 'big.ts'), `const x = 1; ${'(/['.repeat(2_800_000)}\n`);
    const server = {
      command: process.execPath,
      args: [join(REPO, 'test', 'fakes', 'hangs-on-definition.ts'), '--cancel-marker', join(dir, 'cancelled')],
      extensionToLanguage: { '.ts': 'typescript' },
      rootMarkers: ['.lsp.json'],
    };
    writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ fake: server }));
    return { dir, args: ['def', 'big.ts:1:x', '--server', 'fake', '--timeout', '10'] };
  }
  writeFileSync(join(dir, 'a.ts'), 'export const x = 1;\nexport const y = x + 1;\n');
  Bun.spawnSync(['mkfifo', join(dir, 'tsconfig.json')]);
  Bun.spawnSync(['ln', '-s', '/dev/zero', join(dir, 'package.json')]);
  return { dir, args: ['def', 'a.ts:2:x', '--timeout', '10'] };
}

/** A's def RUNS times, one after another, in ms. */
async function defs(): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await timeCommand([LSPQ, ...DEF], a, env);
    if (r.exit !== 0) throw new Error(`A's def failed (exit ${r.exit})`);
    out.push(r.ms);
  }
  return out;
}

await timeCommand([LSPQ, ...DEF], a, env); // warm: A's server started
const idleFrom = logLength();
const idle = await defs();
const rows: (string | number)[][] = [
  ['idle', fmt(median(idle)), fmt(p90(idle)), fmt(Math.max(...idle)), fmt(longestHold(idleFrom)), '', ''],
];
for (const kind of ['long line', 'fifo and /dev/zero'] as const) {
  const b = workspaceB(kind);
  const from = logLength();
  let bDone = false;
  const question = timeCommand([LSPQ, ...b.args], b.dir, env).then((r) => {
    bDone = true;
    return r;
  });
  // B's request in flight (for the long line: its server asked, the scan behind it) before A is measured.
  await Bun.sleep(500);
  const during = await defs();
  const inFlight = !bDone;
  const r = await question;
  rows.push([
    `during B: ${kind}${inFlight ? '' : ' (B ended before A was done)'}`,
    fmt(median(during)),
    fmt(p90(during)),
    fmt(Math.max(...during)),
    fmt(longestHold(from)),
    `${fmt(r.ms)} ms, exit ${r.exit}`,
    median(during) <= median(idle) + 50 ? 'yes' : 'no',
  ]);
}
await timeCommand([LSPQ, 'daemon', 'stop'], a, env);
const head = ['A’s warm def', 'median ms', 'p90 ms', 'max ms', 'longest hold of the daemon ms', 'B’s question'];
console.log(table([...head, 'within idle + 50 ms'], rows));
