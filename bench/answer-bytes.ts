/**
 * What an agent reads per answer, in bytes (stdout and stderr together), on
 * the published projects: diag --all on golang.org/x/sync (gopls's hints)
 * and anyhow (rust-analyzer's warnings), pyright's hovers on attrs, gopls's
 * symbols -w on gorilla/mux, and MCP's tools/list (with the instructions
 * sent at initialize). This build and the build before it
 * (bench/harness.ts beforeBuild), each with a daemon of its own; each
 * question asked once to warm its server, then measured. Prints markdown;
 * `bun bench/answer-bytes.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { anyhowAt, attrsAt, muxAt, xSyncAt } from '../test/helpers/published';
import { beforeBuild, benchEnv, LSPQ, ownDaemon, table } from './harness';

const work = mkdtempSync(join(tmpdir(), 'lspq-answer-bytes-'));
const at = (name: string, copy: (dir: string) => string) => copy(join(work, name));
const projects = {
  'golang.org/x/sync': at('x-sync', xSyncAt),
  anyhow: at('anyhow', anyhowAt),
  attrs: at('attrs', attrsAt),
  'gorilla/mux': at('mux', muxAt),
};
type Name = keyof typeof projects;

const before = await beforeBuild();
const builds = [
  { name: 'before', binary: before.binary, env: ownDaemon({ ...benchEnv, LSPQ_TRUST: 'all' }, 'bytes-before') },
  { name: 'after', binary: LSPQ, env: ownDaemon({ ...benchEnv, LSPQ_TRUST: 'all' }, 'bytes-after') },
];

/** pyright's hovers on attrs's public functions, at their definitions. */
const HOVERS = [
  'src/attr/_make.py:563:evolve',
  'src/attr/_make.py:1836:fields',
  'src/attr/_next_gen.py:23:define',
  'src/attr/_next_gen.py:416:field',
  'src/attr/_funcs.py:11:asdict',
];
const questions: { what: string; project: Name; asks: string[][] }[] = [
  { what: 'diag --all', project: 'golang.org/x/sync', asks: [['diag', '--all']] },
  { what: 'diag --all', project: 'anyhow', asks: [['diag', '--all', '--timeout', '300']] },
  { what: `hover (${HOVERS.length} functions)`, project: 'attrs', asks: HOVERS.map((t) => ['hover', t]) },
  { what: 'symbols -w Matcher', project: 'gorilla/mux', asks: [['symbols', '-w', 'Matcher']] },
];

async function bytesOf(binary: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  const proc = Bun.spawn([binary, ...args], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [out, err] = await Promise.all([new Response(proc.stdout).bytes(), new Response(proc.stderr).bytes()]);
  await proc.exited;
  return out.length + err.length;
}

/** tools/list as the SDK's client receives it, and the instructions initialize sends. */
async function mcpBytes(binary: string, cwd: string, env: Record<string, string>): Promise<[number, number]> {
  const transport = new StdioClientTransport({ command: binary, args: ['mcp'], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'answer-bytes', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const listed = JSON.stringify({ tools }).length;
  const instructions = client.getInstructions()?.length ?? 0;
  await client.close();
  return [listed, instructions];
}

const rows: (string | number)[][] = [];
const change = (was: number, now: number) => `${now >= was ? '+' : ''}${(((now - was) / was) * 100).toFixed(0)}%`;
for (const q of questions) {
  const cwd = projects[q.project];
  for (const form of ['text', '--json']) {
    const sizes: number[] = [];
    for (const b of builds) {
      const ask = (args: string[]) => bytesOf(b.binary, form === 'text' ? args : [...args, '--json'], cwd, b.env);
      for (const args of q.asks) await ask(args);
      let total = 0;
      for (const args of q.asks) total += await ask(args);
      sizes.push(total);
    }
    const [was = 0, now = 0] = sizes;
    rows.push([q.what, q.project, form, was, now, change(was, now)]);
  }
}
const mcp = await Promise.all(builds.map((b) => mcpBytes(b.binary, projects['gorilla/mux'], b.env)));
const [[listedBefore = 0, saidBefore = 0] = [], [listedAfter = 0, saidAfter = 0] = []] = mcp;
rows.push(['MCP tools/list', 'gorilla/mux', 'JSON', listedBefore, listedAfter, change(listedBefore, listedAfter)]);
rows.push([
  'MCP tools/list + instructions',
  'gorilla/mux',
  'JSON',
  listedBefore + saidBefore,
  listedAfter + saidAfter,
  change(listedBefore + saidBefore, listedAfter + saidAfter),
]);
const was = before.commit === 'LSPQ_BENCH_BEFORE' ? before.binary : before.commit.slice(0, 12);
console.log(table(['question', 'project', 'form', `bytes before (${was})`, 'bytes after', 'change'], rows));
for (const b of builds)
  Bun.spawnSync([b.binary, 'daemon', 'stop'], { cwd: work, env: b.env, stdout: 'ignore', stderr: 'ignore' });
rmSync(work, { recursive: true, force: true });
