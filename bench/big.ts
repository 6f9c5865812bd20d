/**
 * How lspq's cost grows with the project: a fixture, cobra, the Go standard
 * library, django (PyPI) and effect (npm, a TypeScript library that ships
 * its sources). For each: the cold first answer (daemon and server start,
 * the project loaded), the first references search after it, warm `def`,
 * `refs`, `hover` and `symbols -w` (medians), and the server's and the
 * daemon's memory after. Prints markdown; `bun bench/big.ts`.
 * BENCH_PROJECTS=stdlib,django narrows a run.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, fmt, LSPQ, median, RUNS, table, timeCommand } from './harness';
import { django, effect, goRoot } from './big-projects';
import { position, projects, REPO, type Project, type Query } from './projects';

interface Big extends Project {
  key: string;
  query: string;
}

function sourceCount(root: string, exts: string[]): number {
  let n = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'testdata') continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (exts.some((x) => e.name.endsWith(x)) && statSync(full).isFile()) n++;
    }
  };
  walk(root);
  return n;
}

function bigProjects(): Big[] {
  const [, cobra] = projects();
  const at = (q: Query) => q;
  const all: Big[] = [
    {
      key: 'fixture',
      lang: 'Go fixture (go-shapes)',
      server: 'gopls',
      root: join(REPO, 'test', 'fixtures', 'go-shapes'),
      target: at({ file: 'main.go', line: /TotalArea\(shapes/, name: 'TotalArea' }),
      symbolsFile: 'main.go',
      query: 'Area',
    },
    { ...cobra!, key: 'cobra', query: 'ExecuteC' },
    {
      key: 'stdlib',
      lang: 'Go standard library',
      server: 'gopls',
      root: join(goRoot(), 'src'),
      target: at({ file: 'net/http/server.go', line: /^func ListenAndServe\(/, name: 'ListenAndServe' }),
      symbolsFile: 'net/http/server.go',
      query: 'ServeMux',
    },
    {
      key: 'django',
      lang: 'Python (django 5.1)',
      server: 'pyright',
      root: django(),
      target: at({
        file: 'django/db/models/query.py',
        line: /^ {4}def filter\(self, \*args, \*\*kwargs\):/,
        name: 'filter',
      }),
      symbolsFile: 'django/db/models/query.py',
      query: 'QuerySet',
    },
    {
      key: 'effect',
      lang: 'TypeScript (effect 3.12)',
      server: 'typescript',
      root: effect(),
      target: at({ file: 'src/Effect.ts', line: /^export const succeed:/, name: 'succeed' }),
      symbolsFile: 'src/Effect.ts',
      query: 'succeed',
    },
  ];
  const only = process.env.BENCH_PROJECTS?.split(',');
  return all.filter((p) => !only || only.includes(p.key));
}

const env = { ...benchEnv, GOFLAGS: '-mod=mod' };
const mb = (bytes: number | null | undefined) => (bytes == null ? '?' : `${Math.round(bytes / 1_048_576)}`);

async function measure(p: Big): Promise<(string | number)[]> {
  const pos = position(p, p.target);
  const target = `${p.target.file}:${pos.line}:${pos.column}`;
  const exts = p.server === 'gopls' ? ['.go'] : p.server === 'pyright' ? ['.py'] : ['.ts'];
  await timeCommand([LSPQ, 'daemon', 'stop'], p.root, env);
  const cold = await timeCommand([LSPQ, 'def', target, '--timeout', '900'], p.root, env);
  if (cold.exit !== 0) throw new Error(`cold def failed in ${p.root}: ${cold.stdout}`);
  const firstRefs = await timeCommand([LSPQ, 'refs', target, '--timeout', '900'], p.root, env);
  const warm = async (args: string[]) => {
    await timeCommand([LSPQ, ...args, '--timeout', '900'], p.root, env);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await timeCommand([LSPQ, ...args, '--timeout', '900'], p.root, env)).ms);
    return median(times);
  };
  const def = await warm(['def', target]);
  const refs = await warm(['refs', target]);
  const hover = await warm(['hover', target]);
  const wsymbols = await warm(['symbols', '-w', p.query, '--root', p.root]);
  const status = JSON.parse((await timeCommand([LSPQ, 'daemon', 'status', '--json'], p.root, env)).stdout) as {
    memoryBytes: number;
    servers: { id: string; memoryBytes: number | null }[];
  };
  const server = status.servers.find((s) => s.id === p.server);
  await timeCommand([LSPQ, 'daemon', 'stop'], p.root, env);
  return [
    p.lang,
    sourceCount(p.root, exts),
    fmt(cold.ms),
    fmt(firstRefs.ms),
    fmt(def),
    fmt(refs),
    fmt(hover),
    fmt(wsymbols),
    mb(server?.memoryBytes),
    mb(status.memoryBytes),
  ];
}

const rows: (string | number)[][] = [];
for (const p of bigProjects()) rows.push(await measure(p));
console.log(
  [
    `Warm figures: median of ${RUNS} runs. All times are wall-clock milliseconds of whole lspq processes; memory in MB (resident, the server with its child processes).\n`,
    table(
      [
        'project',
        'source files',
        'cold first `def` (daemon + server start, project loaded)',
        'first `refs` after it',
        'warm `def`',
        'warm `refs`',
        'warm `hover`',
        'warm `symbols -w`',
        'server MB',
        'daemon MB',
      ],
      rows,
    ),
  ].join('\n'),
);
