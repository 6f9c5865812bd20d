/**
 * The differential harness's full run (test/helpers/differential.ts): on
 * real published projects, references at occurrences of every kind chosen
 * by a fixed seed, asked cold and warm, of an index and of the server, and
 * of two servers of one language; and `diag --staged` against a checkout of
 * the staged tree. Prints each comparison's agreement and every difference.
 *
 *   bun bench/differential.ts [--sample N] [--staged N] [--seed S] [--only NAME] [--declarations]
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Ask,
  asker,
  chooseOccurrences,
  chooseTargets,
  coldAgainstWarm,
  type Comparison,
  KNOWN_BETWEEN_SERVERS,
  ownDaemon,
  report,
  stagedAgainstCheckout,
  twoViews,
} from '../test/helpers/differential';
import { git } from '../test/helpers/lspq';
import { anyhowAt, attrsAt, immerAt, muxAt, queryCoreAt, xSyncAt } from '../test/helpers/published';
import { toolsEnv } from './harness';
import { projects, REPO, WORK } from './projects';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const SAMPLE = Number(arg('--sample', '40'));
const SEED = Number(arg('--seed', '20261127'));
const ONLY = arg('--only', '');
/** The earlier draw: declarations (functions, methods, types) of each file's outline, not occurrences of every kind. */
const DECLARATIONS = process.argv.includes('--declarations');
/** Staged edits a project: each a `diag --all` twice, so fewer than the sample. */
const STAGED = Number(arg('--staged', '6'));

/**
 * A published project copied into bench/.work and committed (the harness
 * lists files with git): `only` its entries of those names. Never the
 * checkout itself, which may change under a run and would get its index.
 */
function committed(name: string, from: string, marker?: string, only?: string[]): string {
  const dir = join(WORK, `diff-${name}`);
  if (!existsSync(dir)) {
    mkdirSync(WORK, { recursive: true });
    if (only) for (const entry of only) cpSync(join(from, entry), join(dir, entry), { recursive: true });
    else cpSync(from, dir, { recursive: true });
    if (marker) writeFileSync(join(dir, marker), '{}\n');
  }
  if (!existsSync(join(dir, '.git'))) {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'as published');
  }
  return dir;
}

interface Case {
  name: string;
  root: string;
  extensions: string[];
  /** The server the targets are chosen with, and the comparisons to run. */
  server?: string;
  pairs?: [string, string][];
  index?: boolean;
  /** `diag --staged --all` against `diag --all` in a checkout of the staged tree, at declarations renamed. */
  staged?: boolean;
}

/** A published project the index tests use, copied into bench/.work once. */
function indexProject(name: string, make: (dir: string) => string): string {
  const dir = join(WORK, `diff-${name}`);
  if (!existsSync(join(dir, '.git'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    make(dir);
  }
  return dir;
}

function cases(): Case[] {
  const [ts, go, python] = projects();
  return [
    {
      name: 'httpx 0.28.1 (pyright)',
      root: committed('httpx', join(REPO, '.tools', 'sources', 'httpx-0.28.1')),
      extensions: ['.py'],
      pairs: [['pyright', 'basedpyright']],
      index: true,
    },
    {
      name: 'requests 2.32.3 (pyright)',
      root: committed('requests', python!.root),
      extensions: ['.py'],
      pairs: [['pyright', 'basedpyright']],
    },
    {
      name: 'monolog 2.9.1 (intelephense)',
      root: committed('monolog', join(REPO, '.tools', 'php-src'), 'composer.json'),
      extensions: ['.php'],
    },
    { name: 'cobra 1.8.1 (gopls)', root: committed('cobra', go!.root), extensions: ['.go'], index: true },
    {
      name: 'immer 11.2.10 (TypeScript 7, scip-typescript)',
      root: indexProject('immer', immerAt),
      extensions: ['.ts'],
      server: 'typescript',
      index: true,
    },
    {
      name: 'gorilla/mux 1.8.1 (gopls, scip-go)',
      root: indexProject('mux', muxAt),
      extensions: ['.go'],
      staged: true,
      index: true,
    },
    {
      name: '@tanstack/query-core 5.108.4 (TypeScript 7, scip-typescript)',
      root: indexProject('query-core', queryCoreAt),
      extensions: ['.ts'],
      server: 'typescript',
      pairs: [['typescript', 'typescript-language-server']],
      staged: true,
      index: true,
    },
    {
      name: 'golang.org/x/sync v0.10.0 (gopls, scip-go)',
      root: indexProject('x-sync', xSyncAt),
      extensions: ['.go'],
      staged: true,
      index: true,
    },
    {
      name: 'attrs 25.3.0 (pyright, scip-python)',
      root: indexProject('attrs', attrsAt),
      extensions: ['.py', '.pyi'],
      server: 'pyright',
      pairs: [['pyright', 'basedpyright']],
      staged: true,
      index: true,
    },
    {
      name: 'anyhow 1.0.98 (rust-analyzer, its scip)',
      root: indexProject('anyhow', anyhowAt),
      extensions: ['.rs'],
      staged: true,
      index: true,
    },
    {
      name: "lspq's own TypeScript",
      // Its sources as of the run's start (the packages they import resolve from the checkout's node_modules above).
      root: committed('lspq', ts!.root, undefined, ['src', 'package.json', 'tsconfig.json']),
      extensions: ['.ts'],
      server: 'typescript',
      pairs: [['typescript', 'typescript-language-server']],
      index: true,
    },
  ];
}

/**
 * At occurrences of every kind (locals, parameters, members, imports)
 * drawn by the seed where the index holds a symbol (the server, where the
 * project has no index): the index against the server (their places, then
 * with `in`), cold against warm, the pairs, and the staged view.
 */
async function occurrences(c: Case, base: Record<string, string>): Promise<Comparison[]> {
  const server = c.server ? ['--server', c.server] : [];
  const chooser = ownDaemon(base);
  let targets: Awaited<ReturnType<typeof chooseOccurrences>>;
  try {
    const ask: Ask = asker(c.root, chooser.env);
    if (c.index) {
      const built = await ask(['index', '--timeout', '600']);
      if (built.exit !== 0) throw new Error(`lspq index failed in ${c.root}: ${built.stderr}`);
    }
    const keep = c.index ? ['--index-only'] : ['--no-index', ...server];
    targets = await chooseOccurrences(ask, c.root, c.extensions, SAMPLE, SEED, keep);
  } finally {
    await chooser.done();
  }
  const views = (withIn: boolean) =>
    twoViews(
      `index against server at occurrences${withIn ? ', with in' : ''}`,
      c.root,
      base,
      targets,
      ['--index-only'],
      ['--no-index', ...server],
      undefined,
      undefined,
      withIn,
    );
  const out: Comparison[] = [];
  try {
    if (c.index) out.push(await views(false), await views(true));
  } finally {
    rmSync(join(c.root, '.lspq'), { recursive: true, force: true });
  }
  out.push(await coldAgainstWarm(c.root, base, targets, 5, [...server, '--no-index']));
  for (const [a, b] of c.pairs ?? []) {
    const what = `${a} against ${b} at occurrences`;
    const args = (id: string) => ['--server', id, '--no-index'];
    out.push(
      await twoViews(
        what,
        c.root,
        base,
        targets,
        args(a),
        args(b),
        undefined,
        KNOWN_BETWEEN_SERVERS[`${a} against ${b}`],
      ),
    );
  }
  if (c.staged) out.push(...(await staged(c, base)));
  return out;
}

/** The staged view against a checkout, at declarations (a renamed one breaks its uses). */
async function staged(c: Case, base: Record<string, string>): Promise<Comparison[]> {
  const chooser = ownDaemon(base);
  let targets: Awaited<ReturnType<typeof chooseTargets>>;
  try {
    targets = await chooseTargets(asker(c.root, chooser.env), c.root, c.extensions, STAGED, SEED, c.server);
  } finally {
    await chooser.done();
  }
  return stagedAgainstCheckout(c.root, base, targets, c.server ? ['--server', c.server] : []);
}

async function run(c: Case): Promise<Comparison[]> {
  const base = toolsEnv({ LSPQ_TRUST: 'all' });
  if (!DECLARATIONS) return occurrences(c, base);
  const chooser = ownDaemon(base);
  let targets: Awaited<ReturnType<typeof chooseTargets>>;
  try {
    const ask: Ask = asker(c.root, chooser.env);
    targets = await chooseTargets(ask, c.root, c.extensions, SAMPLE, SEED, c.server);
  } finally {
    await chooser.done();
  }
  const server = c.server ? ['--server', c.server] : [];
  const out: Comparison[] = [await coldAgainstWarm(c.root, base, targets, 5, [...server, '--no-index'])];
  for (const [a, b] of c.pairs ?? []) {
    const what = `${a} against ${b}`;
    const args = (id: string) => ['--server', id, '--no-index'];
    out.push(await twoViews(what, c.root, base, targets, args(a), args(b), undefined, KNOWN_BETWEEN_SERVERS[what]));
  }
  if (c.index) {
    out.push(
      await twoViews('index against server', c.root, base, targets, ['--index-only'], ['--no-index'], async (ask) => {
        const built = await ask(['index', '--timeout', '600']);
        if (built.exit !== 0) throw new Error(`lspq index failed in ${c.root}: ${built.stderr}`);
      }),
    );
    rmSync(join(c.root, '.lspq'), { recursive: true, force: true });
  }
  return out;
}

for (const c of cases()) {
  if (ONLY && !c.name.includes(ONLY)) continue;
  for (const comparison of await run(c)) console.log(report(c.name, comparison));
}
