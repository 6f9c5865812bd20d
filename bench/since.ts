/**
 * diag --since against plain diag, side by side on one warm daemon: each
 * project becomes a git repository with two commits (the second changes
 * one function's signature, as a pull request would), then `lspq diag
 * --since HEAD~1 --all` (the servers asked about two states) and `lspq diag
 * --all` (one) run interleaved. The ratio is what the second state costs.
 * Prints markdown; `bun bench/since.ts`.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, LSPQ, median, RUNS, table, timeCommand, toolsEnv } from './harness';
import { rich } from './big-projects';
import { projects, REPO, WORK } from './projects';

interface Case {
  lang: string;
  root: string;
  /** The change of the second commit: a file and what its text becomes. */
  change: { file: string; edit: (text: string) => string };
}

function sh(cmd: string[], cwd: string): void {
  const r = Bun.spawnSync(cmd, { cwd, stdin: 'ignore', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr.toString()}`);
}

/** A scratch copy as a repository of two commits: the project, then `change`. */
function repository(name: string, from: string, parts: string[] | undefined, c: Case['change']): string {
  const root = join(WORK, `since-${name}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const part of parts ?? ['.']) cpSync(join(from, part), join(root, part), { recursive: true });
  const git = (...args: string[]) => sh(['git', '-c', 'user.name=b', '-c', 'user.email=b@b', ...args], root);
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'base');
  const file = join(root, c.file);
  writeFileSync(file, c.edit(readFileSync(file, 'utf8')));
  git('commit', '-qam', 'change');
  return root;
}

function cases(): Case[] {
  const [, go] = projects();
  const tsChange = {
    file: 'src/lsp/line-map.ts',
    edit: (t: string) =>
      t.replace(
        'export function lineMap(before: string, after: string)',
        'export function lineMap(before: string, after: string, _extra: number)',
      ),
  };
  const ts = repository('lspq', REPO, ['src', 'tsconfig.json', 'package.json'], tsChange);
  writeFileSync(
    join(ts, 'tsconfig.json'),
    readFileSync(join(ts, 'tsconfig.json'), 'utf8').replace(
      '"include": ["src", "test", "bench", "scripts"]',
      '"include": ["src"]',
    ),
  );
  symlinkSync(join(REPO, 'node_modules'), join(ts, 'node_modules'));
  const goChange = {
    file: 'args.go',
    edit: (t: string) =>
      t.replace(
        'func NoArgs(cmd *Command, args []string) error {',
        'func NoArgs(cmd *Command, args []string, _ int) error {',
      ),
  };
  const pyChange = {
    file: 'rich/cells.py',
    edit: (t: string) =>
      t.replace(
        'def cell_len(text: str, _cell_len: Callable[[str], int] = cached_cell_len) -> int:',
        'def cell_len(text: str, extra: int, _cell_len: Callable[[str], int] = cached_cell_len) -> int:',
      ),
  };
  return [
    { lang: 'TypeScript (lspq)', root: ts, change: tsChange },
    { lang: 'Go (cobra)', root: repository('cobra', go!.root, undefined, goChange), change: goChange },
    { lang: 'Python (rich)', root: repository('rich', rich(), ['rich', 'pyproject.toml'], pyChange), change: pyChange },
  ];
}

const env = toolsEnv({ LSPQ_SOCKET: join(WORK, 'since-daemon', 'daemon.sock') });

async function main(): Promise<void> {
  mkdirSync(join(WORK, 'since-daemon'), { recursive: true, mode: 0o700 });
  const rows: (string | number)[][] = [];
  for (const c of cases()) {
    const plain = [LSPQ, 'diag', '--all', '--fail-on', 'never', '--timeout', '600'];
    const since = [...plain, '--since', 'HEAD~1'];
    // Warm: the servers started and the project loaded, once each way.
    for (const argv of [plain, since]) {
      const r = await timeCommand(argv, c.root, env);
      if (r.exit !== 0) throw new Error(`${argv.join(' ')} failed in ${c.root}`);
    }
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < Math.max(5, Math.floor(RUNS / 4)); i++) {
      a.push((await timeCommand(plain, c.root, env)).ms);
      b.push((await timeCommand(since, c.root, env)).ms);
    }
    const found = (await timeCommand([...since, '--json'], c.root, env)).stdout;
    const doc = JSON.parse(found) as { diagnostics: unknown[]; files: string[] };
    rows.push([
      c.lang,
      doc.files.length,
      fmt(median(a)),
      fmt(median(b)),
      `**${(median(b) / median(a)).toFixed(2)}x**`,
      doc.diagnostics.length,
    ]);
  }
  await timeCommand([LSPQ, 'daemon', 'stop'], REPO, env);
  console.log('#### diag --since HEAD~1 --all against diag --all (warm daemon)\n');
  console.log(
    table(
      ['project', 'files', '`diag --all` ms', '`diag --since HEAD~1 --all` ms', 'since / plain', 'new diagnostics'],
      rows,
    ),
  );
}

await main();
