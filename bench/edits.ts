/**
 * The edit commands' benchmark, side by side in one run on real projects:
 * `lspq fmt --check` over every file of a project (warm daemon) against the
 * language's formatter CLI (`gofmt -l` on cobra, `ruff format --check` on
 * requests), and a warm `lspq rename --dry-run` against the same rename sent
 * straight to the server by this benchmark's own client. Each pair is
 * measured interleaved. Prints markdown; `bun bench/edits.ts`.
 */
import { Requests } from '../src/lsp/requests';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LspClient } from '../src/lsp/client';
import { Documents } from '../src/lsp/documents';
import { toServerCharacter } from '../src/lsp/position';
import { locateBinary } from '../src/lsp/servers/locate';
import { BUILTIN_SERVERS } from '../src/lsp/servers/registry';
import { Trust } from '../src/trust/decision';
import { benchEnv, fmt, interleaved, LSPQ, median, RUNS, SETTLE_MS, table, timeCommand, toolsEnv } from './harness';
import { position, projects, type Query } from './projects';

/** Source files under `dir`, relative, skipping tests of the formatter's own choice: the same list for both sides. */
function filesOf(dir: string, ext: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(ext)) out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

/** The server driven directly: every file opened, then all formatting requests at once (the request alone, timed). */
async function rawFormatter(
  serverId: string,
  root: string,
  files: string[],
  env: Record<string, string>,
): Promise<{ time: () => Promise<number>; close: () => Promise<void> }> {
  const spec = BUILTIN_SERVERS.find((s) => s.id === serverId)!;
  const client = await LspClient.start({ spec, binary: locateBinary(spec, root, env, Trust.everything())!, root, env });
  const docs = new Documents(client);
  for (const f of files) await docs.sync(join(root, f));
  const all = () =>
    Promise.all(
      files.map((f) =>
        client.request(
          Requests.formatting,
          { textDocument: { uri: docs.uri(join(root, f)) }, options: { tabSize: 4, insertSpaces: true } },
          { timeoutMs: 300_000 },
        ),
      ),
    );
  await all();
  return {
    time: async () => {
      const t = performance.now();
      await all();
      return performance.now() - t;
    },
    close: () => client.shutdown(),
  };
}

async function fmtRows(): Promise<(string | number)[][]> {
  const [, go, py] = projects();
  const env = toolsEnv({ GOFLAGS: '-mod=mod' });
  const lspqEnv = { ...benchEnv, GOFLAGS: '-mod=mod' };
  // The same list on every side: the project's sources as the formatter CLI would take them.
  const cases = [
    {
      lang: 'Go (cobra)',
      root: go!.root,
      files: filesOf(go!.root, '.go'),
      server: 'gopls',
      checker: (files: string[]) => ['gofmt', '-l', ...files],
      changed: (out: string) => out.split('\n').filter(Boolean).length,
    },
    {
      lang: 'Python (requests)',
      root: py!.root,
      files: filesOf(join(py!.root, 'src'), '.py').map((f) => join('src', f)),
      server: 'ruff',
      checker: (files: string[]) => [
        join(import.meta.dir, '..', '.tools', 'bin', 'ruff'),
        'format',
        '--check',
        ...files,
      ],
      changed: (out: string) => Number(/(\d+) files? would be reformatted/.exec(out)?.[1] ?? 0),
    },
  ];
  const rows: (string | number)[][] = [];
  for (const c of cases) {
    const lspq = [LSPQ, 'fmt', '--check', '--server', c.server, '--timeout', '300', ...c.files];
    const first = await timeCommand(lspq, c.root, lspqEnv); // warms the daemon and the server
    const theirs = Bun.spawnSync(c.checker(c.files), { cwd: c.root, env, stdout: 'pipe', stderr: 'pipe' });
    const changedByChecker = c.changed(`${theirs.stdout.toString()}${theirs.stderr.toString()}`);
    const raw = await rawFormatter(c.server, c.root, c.files, env);
    const [mine, checker, server] = await interleaved([
      async () => (await timeCommand(lspq, c.root, lspqEnv)).ms,
      async () => (await timeCommand(c.checker(c.files), c.root, env)).ms,
      raw.time,
    ]);
    await raw.close();
    const checkerName = c
      .checker([])
      .map((w) => w.split('/').pop())
      .join(' ');
    rows.push([
      c.lang,
      c.files.length,
      first.stdout.split('\n').filter(Boolean).length,
      changedByChecker,
      `\`${checkerName}\``,
      fmt(median(checker!)),
      `${c.server} ${fmt(median(server!))}`,
      fmt(median(mine!)),
      `**${(median(mine!) / median(checker!)).toFixed(2)}x**`,
      `+${fmt(median(mine!) - median(server!))}`,
    ]);
    await timeCommand([LSPQ, 'daemon', 'stop'], c.root, lspqEnv);
  }
  return rows;
}

/** A warm rename, dry run, against the same rename asked straight of gopls. */
async function renameRow(): Promise<(string | number)[]> {
  const [, go] = projects();
  const project = go!;
  const target: Query = { file: 'command.go', line: /^func \(c \*Command\) ExecuteC\(\)/, name: 'ExecuteC' };
  const pos = position(project, target);
  const env = toolsEnv({ GOFLAGS: '-mod=mod' });
  const spec = BUILTIN_SERVERS.find((s) => s.id === 'gopls')!;
  const client = await LspClient.start({
    spec,
    binary: locateBinary(spec, project.root, env, Trust.everything())!,
    root: project.root,
    env,
  });
  const docs = new Documents(client);
  const text = await docs.sync(pos.path);
  const line = text.split('\n')[pos.line - 1]!;
  const params = {
    textDocument: { uri: docs.uri(pos.path) },
    position: { line: pos.line - 1, character: toServerCharacter(line, pos.column - 1, client.encoding) },
    newName: 'RunC',
  };
  const options = { timeoutMs: 300_000 };
  await client.request(Requests.rename, params, options);
  const lspqEnv = { ...benchEnv, GOFLAGS: '-mod=mod' };
  const argv = [LSPQ, 'rename', `${target.file}:${pos.line}:${pos.column}`, 'RunC', '--dry-run'];
  const warm = await timeCommand(argv, project.root, lspqEnv);
  if (warm.exit !== 0) throw new Error(`lspq rename failed in ${project.root}`);
  const server: number[] = [];
  const lspq: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await Bun.sleep(SETTLE_MS);
    const t = performance.now();
    await client.request(Requests.rename, params, options);
    server.push(performance.now() - t);
    await Bun.sleep(SETTLE_MS);
    lspq.push((await timeCommand(argv, project.root, lspqEnv)).ms);
  }
  await client.shutdown();
  await timeCommand([LSPQ, 'daemon', 'stop'], project.root, lspqEnv);
  const files = warm.stdout.split('\n').filter((l) => l.startsWith('diff --git')).length;
  return [
    'Go (cobra)',
    '`ExecuteC` → `RunC`',
    files,
    fmt(median(server)),
    fmt(median(lspq)),
    `+${fmt(median(lspq) - median(server))}`,
  ];
}

const fmtTable = await fmtRows();
const renameTable = [await renameRow()];
console.log(
  [
    `Runs per figure: ${RUNS}, each pair interleaved. Times are wall-clock milliseconds of whole processes, and of the request alone for the server.\n`,
    "### fmt --check: lspq (warm daemon) against the formatter's own CLI\n",
    table(
      [
        'project',
        'files',
        'lspq: would change',
        'formatter: would change',
        'formatter',
        'formatter ms',
        'server ms (requests alone)',
        'lspq ms',
        'lspq / formatter',
        'lspq over server',
      ],
      fmtTable,
    ),
    "\n### rename --dry-run: lspq (warm) against the server's own rename\n",
    table(
      [
        'project',
        'rename',
        'files changed',
        'server ms (request alone)',
        'lspq ms (whole command)',
        'lspq over server',
      ],
      renameTable,
    ),
  ].join('\n'),
);
