/**
 * What a whole answer across a monorepo costs: a cold `refs` asked from
 * one package of a real workspace (two packages of TanStack Query, as the
 * tests build it), against the same server driven straight by this
 * benchmark's own client, asked two ways: with a file of every project
 * open (the whole answer, the work lspq makes it do) and with the
 * target's file alone (what a naive client asks: the using package's
 * uses missing). Interleaved, cold each time; the servers' memory after each.
 * Prints markdown; `bun bench/monorepo.ts`.
 */
import { Requests } from '../src/lsp/requests';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectsUnder } from '../src/engine/projects';
import { LspClient } from '../src/lsp/client';
import { Documents } from '../src/lsp/documents';
import { treeMemory } from '../src/lsp/memory';
import { locateBinary } from '../src/lsp/servers/locate';
import { BUILTIN_SERVERS, languageIdFor } from '../src/lsp/servers/registry';
import { Trust } from '../src/trust/decision';
import { tanstackWorkspace, typescriptOnPath } from '../test/helpers/workspaces';
import { fmt, LSPQ, median, table, timeCommand, toolsEnv } from './harness';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const TARGET = { file: 'packages/query-core/src/utils.ts', line: 323, column: 17 };
const SERVERS = ['typescript', 'typescript-language-server'];
const MB = 1024 * 1024;

interface Side {
  ms: number;
  refs: number;
  mb: number;
}

/** The server straight: start, open (a file of every project, or the target's alone), ready, references. */
async function raw(serverId: string, root: string, env: Record<string, string>, every: boolean): Promise<Side> {
  const spec = BUILTIN_SERVERS.find((s) => s.id === serverId)!;
  const binary = locateBinary(spec, root, env, Trust.everything());
  if (!binary) throw new Error(`${serverId} not found: run scripts/install-servers.sh`);
  const start = performance.now();
  const client = await LspClient.start({ spec, binary, root, env });
  const docs = new Documents(client);
  const target = join(root, TARGET.file);
  await docs.sync(target);
  if (every)
    for (const { file } of await projectsUnder(root, (p) => languageIdFor(spec, p) !== undefined))
      await docs.sync(file);
  await client.waitFor(() => client.state.isReady(docs.paths.map((p) => docs.uri(p))), 120_000, 'loading');
  const found = await client.request(
    Requests.references,
    {
      textDocument: { uri: docs.uri(target) },
      position: { line: TARGET.line - 1, character: TARGET.column - 1 },
      context: { includeDeclaration: false },
    },
    { timeoutMs: 120_000 },
  );
  const ms = performance.now() - start;
  const mb = (treeMemory(client.pid) ?? 0) / MB;
  await client.shutdown();
  return { ms, refs: found?.length ?? 0, mb };
}

async function main(): Promise<void> {
  const root = tanstackWorkspace();
  const tsc = typescriptOnPath();
  const socketDir = join(root, '..', `${root.split('/').pop()}-daemon`);
  const env = toolsEnv({ PATH: `${tsc}:${toolsEnv().PATH}`, LSPQ_SOCKET: join(socketDir, 'daemon.sock') });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  const cwd = join(root, 'packages', 'query-core');
  const rows: (string | number)[][] = [];
  try {
    for (const server of SERVERS) {
      const args = ['refs', `src/utils.ts:${TARGET.line}:${TARGET.column}`, '--server', server];
      const lspq: Side[] = [];
      const whole: Side[] = [];
      const alone: Side[] = [];
      for (let i = 0; i < RUNS; i++) {
        await timeCommand([LSPQ, 'daemon', 'stop'], cwd, env);
        const r = await timeCommand([LSPQ, ...args], cwd, env);
        if (r.exit !== 0) throw new Error(`lspq refs failed (exit ${r.exit})`);
        const status = await timeCommand([LSPQ, 'daemon', 'status', '--json'], cwd, env);
        const servers = (JSON.parse(status.stdout) as { servers?: { memoryBytes: number | null }[] }).servers ?? [];
        const bytes = servers.reduce((n, s) => n + (s.memoryBytes ?? 0), 0);
        lspq.push({ ms: r.ms, refs: r.stdout.trim().split('\n').length, mb: bytes / MB });
        whole.push(await raw(server, root, env, true));
        alone.push(await raw(server, root, env, false));
      }
      await timeCommand([LSPQ, 'daemon', 'stop'], cwd, env);
      const m = (xs: Side[], k: keyof Side) => median(xs.map((x) => x[k]));
      rows.push([
        server,
        `${fmt(m(lspq, 'ms'))} (${m(lspq, 'refs')} refs, ${fmt(m(lspq, 'mb'))} MB)`,
        `${fmt(m(whole, 'ms'))} (${m(whole, 'refs')} refs, ${fmt(m(whole, 'mb'))} MB)`,
        `${fmt(m(alone, 'ms'))} (${m(alone, 'refs')} refs, ${fmt(m(alone, 'mb'))} MB)`,
        `${(m(lspq, 'ms') / m(whole, 'ms')).toFixed(2)}x`,
        `+${fmt(m(whole, 'ms') - m(alone, 'ms'))}`,
      ]);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(tsc, { recursive: true, force: true });
    rmSync(socketDir, { recursive: true, force: true });
  }
  console.log('#### A cold refs across a monorepo (TanStack Query: 2 packages, ms, medians)\n');
  console.log(
    table(
      [
        'server',
        'lspq, cold (whole)',
        'the server straight, every project open',
        "the server straight, the target's file alone",
        'lspq / server whole',
        'cost of loading every project',
      ],
      rows,
    ),
  );
}

await main();
