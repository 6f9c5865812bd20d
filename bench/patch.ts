/**
 * diag --patch on immer (npm pack: its TypeScript sources), TypeScript 7,
 * one warm daemon. First its cost: a patch over 5 files (a signature one of
 * them breaks callers of, and a function added to each other) checked in
 * memory, against `diag` of the same 5 files once written (and `diag
 * --all`, the files --patch checks), interleaved, each from a warm disk
 * state. Then its answers: a hundred seeded edits (test/helpers/
 * seeded-edits.ts: the server's renames and code actions, a parameter
 * added, an export deleted) checked with --patch, then committed and
 * checked with --since HEAD~1 --all: the same diagnostics or not.
 * Prints markdown; `bun bench/patch.ts` (BENCH_EDITS=100, BENCH_RUNS=20,
 * BENCH_PART=cost or answers for one half).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { compareEdit, type Compared, type Run, seededEdits, TYPESCRIPT } from '../test/helpers/seeded-edits';
import { fmt, interleaved, LSPQ, median, p90, RUNS, runLspq, table, timeCommand, toolsEnv } from './harness';
import { immer, REPO, WORK } from './projects';

const EDITS = Number(process.env.BENCH_EDITS ?? 100);
// immer's copy is trusted, so TypeScript 7 from the checkout's node_modules answers, as the figures say.
const env = toolsEnv({ LSPQ_SOCKET: join(WORK, 'patch-daemon', 'daemon.sock'), LSPQ_TRUST: 'all' });

function git(root: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=b', '-c', 'user.email=b@b', ...args], {
    cwd: root,
    stdin: 'ignore',
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** A scratch copy of immer as a repository of one commit. */
function repository(): string {
  const root = join(WORK, 'patch-immer');
  rmSync(root, { recursive: true, force: true });
  cpSync(immer(), root, { recursive: true });
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'immer');
  return root;
}

const runIn =
  (cwd: string): Run =>
  (args, stdin) =>
    runLspq(args, cwd, env, stdin);

/** The 5-file edit: isDraftable takes a second parameter (its callers break), and each other file gains a function. */
function fiveFiles(root: string): Map<string, { before: string; after: string }> {
  const edits: [string, (t: string) => string][] = [
    [
      'src/utils/common.ts',
      (t) =>
        t.replace(
          'export function isDraftable(value: any): boolean {',
          'export function isDraftable(value: any, deep: boolean): boolean {',
        ),
    ],
    ...['src/core/scope.ts', 'src/core/current.ts', 'src/plugins/mapset.ts', 'src/core/proxy.ts'].map(
      (f, i): [string, (t: string) => string] => [
        f,
        (t) => `${t}\nexport function added${i}(n: number): number {\n\treturn n + ${i}\n}\n`,
      ],
    ),
  ];
  const out = new Map<string, { before: string; after: string }>();
  for (const [file, edit] of edits) {
    const before = readFileSync(join(root, file), 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit of ${file} changed nothing: immer's sources moved`);
    out.set(file, { before, after });
  }
  return out;
}

async function cost(root: string): Promise<string> {
  const files = fiveFiles(root);
  const patch = [...files].map(([f, t]) => createTwoFilesPatch(`a/${f}`, `b/${f}`, t.before, t.after)).join('');
  const patchFile = join(WORK, 'patch-immer.diff');
  writeFileSync(patchFile, patch);
  const names = [...files.keys()];
  const write = (side: 'before' | 'after') => {
    for (const [f, t] of files) writeFileSync(join(root, f), t[side]);
  };
  const warm = () => timeCommand([LSPQ, 'diag', '--all', '--fail-on', 'never'], root, env);
  // Warm: the server started, the project loaded, each way asked once.
  await warm();
  await timeCommand([LSPQ, 'diag', '--patch', patchFile], root, env);
  const found = JSON.parse((await timeCommand([LSPQ, 'diag', '--patch', patchFile, '--json'], root, env)).stdout) as {
    diagnostics: unknown[];
    files: string[];
  };
  const written = (argv: string[]) => async () => {
    write('after');
    const ms = (await timeCommand(argv, root, env)).ms;
    write('before');
    await warm();
    return ms;
  };
  const [inMemory, five, all] = await interleaved([
    async () => (await timeCommand([LSPQ, 'diag', '--patch', patchFile], root, env)).ms,
    written([LSPQ, 'diag', ...names]),
    written([LSPQ, 'diag', '--all']),
  ]);
  const row = (what: string, xs: number[]) => [
    what,
    fmt(median(xs)),
    fmt(p90(xs)),
    `${(median(xs) / median(five!)).toFixed(2)}x`,
  ];
  return [
    `#### A patch over 5 files of immer (${found.files.length} files checked, ${found.diagnostics.length} new diagnostics), warm daemon, ${RUNS} rounds`,
    '',
    table(
      ['command', 'median ms', 'p90 ms', 'over diag of the 5 files'],
      [
        row('`diag --patch P` (in memory, callers included)', inMemory!),
        row('`diag F1..F5` once written', five!),
        row('`diag --all` once written', all!),
      ],
    ),
  ].join('\n');
}

async function answers(root: string): Promise<string> {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? sources(join(dir, e.name))
        : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
          ? [join(dir, e.name)]
          : [],
    );
  const files = sources(join(root, 'src')).map((f) => relative(root, f));
  const run = runIn(root);
  const edits = await seededEdits(root, files, TYPESCRIPT, run, 1, EDITS);
  const compared: Compared[] = [];
  for (const edit of edits) compared.push(await compareEdit(root, edit, run, (...args) => git(root, ...args)));
  const kinds = ['rename', 'action', 'signature', 'unexport'] as const;
  const skipped = compared.filter((c) => c.skipped);
  const rows = kinds.map((k) => {
    const of = compared.filter((c) => c.edit.kind === k && !c.skipped);
    return [
      k,
      of.length,
      of.filter((c) => c.same).length,
      of.filter((c) => c.said).length,
      of.filter((c) => c.patch.length > 0).length,
      fmt(median(of.map((c) => c.patchMs))),
    ];
  });
  const said = compared.filter((c) => c.said);
  const differ = compared.filter((c) => !c.same && !c.skipped && !c.said);
  return [
    `#### ${compared.length} seeded edits of immer (seed 1): diag --patch against diag --since HEAD~1 --all once committed`,
    '',
    table(
      ['edit', 'edits', 'same answer', 'said it could not (exit 3)', 'introduce problems', '`--patch` median ms'],
      rows,
    ),
    '',
    said.length ? `Said (exit 3): ${[...new Set(said.map((c) => c.said))].join('; ')}` : '',
    skipped.length
      ? `Not compared, git apply refusing the diff lspq printed: ${skipped.map((c) => `${c.edit.what} (${c.skipped})`).join('; ')}`
      : '',
    differ.length === 0
      ? 'Every answer the same.'
      : `Different: ${differ
          .map((c) => {
            const only = (a: string[], b: string[]) => a.filter((k) => !b.includes(k));
            return `${c.edit.what}: only with --patch ${JSON.stringify(only(c.patch, c.since))}, only with --since ${JSON.stringify(only(c.since, c.patch))}`;
          })
          .join('; ')}`,
  ].join('\n');
}

async function main(): Promise<void> {
  mkdirSync(join(WORK, 'patch-daemon'), { recursive: true, mode: 0o700 });
  const root = repository();
  const part = process.env.BENCH_PART;
  try {
    if (part !== 'answers') console.log(`${await cost(root)}\n`);
    if (part !== 'cost') console.log(await answers(root));
  } finally {
    await timeCommand([LSPQ, 'daemon', 'stop'], REPO, env);
  }
}

await main();
