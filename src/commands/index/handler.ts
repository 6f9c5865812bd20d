/**
 * lspq index: runs the project's SCIP indexers (found as servers are:
 * the project's node_modules/.bin, the user's tool folders, PATH) and
 * writes one index, `.lspq/index.scip` by default, whole or not at all,
 * with a manifest beside it of the commit and each indexed file, so later
 * questions know which files changed since.
 */
import { spawn } from 'node:child_process';
import { boxed } from '../../box/command';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LspqError } from '../../common/errors';
import { describeFiles, foldersOf, manifestPath } from '../../scip/manifest';
import { recordOwn } from '../../trust/own-files';
import { guardWrite, makeFolders, writeOwnFile } from '../../common/workspace-guard';
import { ScipIndex } from '../../scip/scip-index';
import { ensureTable, tablePath } from '../../engine/index-tables';
import { INDEXERS } from '../../lsp/servers/indexers';
import { indexPlan } from './plan';
import { fetchIndex } from '../../scip/fetch-index';
import { commitsFor } from '../../engine/index-files';
import { rootMetadata } from '../../scip/scip-types';
import { findCommand, withUserPath } from '../../lsp/servers/locate';
import type { Indexer } from '../../lsp/servers/indexers';
import { BUILTIN_SERVERS } from '../../lsp/servers/registry';
import { underTrust } from '../../lsp/servers/untrusted';
import { realOf } from '../../common/real-path';
import type { IndexResult } from './question';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import type { IndexQuery } from './question';
import { checkoutTop } from '../../project/checkout';
import { runGitSync } from '../../git/run';

/**
 * The Node indexers run out of Node's default heap on a large project
 * (scip-python on django fails after three minutes): half the machine's
 * memory, up to 8 GB, unless NODE_OPTIONS says otherwise.
 */
function indexerEnv(env: Record<string, string>): Record<string, string> {
  if (env.NODE_OPTIONS?.includes('max-old-space-size')) return env;
  const { totalmem } = require('node:os') as typeof import('node:os');
  const mb = Math.min(8192, Math.floor(totalmem() / 2 / 1_048_576));
  return { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --max-old-space-size=${mb}`.trim() };
}

/**
 * How an indexer runs for `dir`: as configured where trust covers it; else
 * in the environment its server's untrusted mode gets, or not at all, said
 * as the server's would be.
 */
function underTrustOf(
  indexer: Indexer,
  dir: string,
  binary: string,
  req: IndexQuery,
  ctx: HandlerContext,
): { env: Record<string, string> } | undefined {
  const untrusted = indexer.untrusted;
  if (!untrusted || ctx.trust.trustsRoot(dir)) return { env: {} };
  if ('refused' in untrusted) {
    ctx.trust.leaveOut(`${indexer.name} (${untrusted.refused})`, dir, { file: dir });
    return undefined;
  }
  const spec = BUILTIN_SERVERS.find((s) => s.id === untrusted.as);
  const restricted = spec ? underTrust(spec, dir, binary, ctx.trust, req.env, realOf) : undefined;
  return restricted ? { env: restricted.env ?? {} } : undefined;
}

/** How long an indexer is given to stop after SIGTERM before its whole group is killed. */
const INDEXER_GRACE_MS = 2_000;

/**
 * Runs one indexer to completion; its output goes to the log tail of an
 * error, never to the user's terminal. It runs in a process group of its
 * own, killed whole when the question is cancelled or runs out of time:
 * nothing lspq starts outlives the question.
 */
function runIndexer(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  budgetMs: number,
  signal: AbortSignal | undefined,
): Promise<{ code: number; tail: string; stopped?: 'timeout' | 'cancelled' }> {
  return new Promise((resolve) => {
    const [binary = '', ...args] = argv;
    const child = spawn(binary, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let tail = '';
    let stopped: 'timeout' | 'cancelled' | undefined;
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-2_000);
    };
    const group = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {}
    };
    const stop = (why: 'timeout' | 'cancelled') => {
      stopped ??= why;
      group('SIGTERM');
      setTimeout(() => group('SIGKILL'), INDEXER_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop('timeout'), budgetMs);
    const onAbort = () => stop('cancelled');
    signal?.addEventListener('abort', onAbort);
    const done = (result: { code: number; tail: string }) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Helpers it started (scip-typescript's workers) go with it.
      group('SIGKILL');
      resolve({ ...result, ...(stopped ? { stopped } : {}) });
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => done({ code: 127, tail: err.message }));
    child.on('close', (code) => done({ code: code ?? 1, tail }));
  });
}

/** The nearest folder at or above `cwd` that an indexer takes (up to the checkout's top), else that top, else `cwd`. */
function projectTop(cwd: string): string {
  const top = checkoutTop(cwd);
  for (let d = cwd; ; d = dirname(d)) {
    if (INDEXERS.some((i) => i.marks(d)) || d === top) return d;
    if (dirname(d) === d) return cwd;
  }
}

function gitHead(root: string, env: Record<string, string>): string | undefined {
  const r = runGitSync(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: root, env, timeoutMs: 10_000 });
  return r?.exit === 0 ? r.stdout.trim() : undefined;
}

export async function buildIndex(req: IndexQuery, ctx: HandlerContext): Promise<IndexResult> {
  if (req.fetch !== undefined) return takeFetched(req.fetch, req, ctx);
  const root = req.root ?? projectTop(req.cwd);
  const out = req.out ?? join(root, '.lspq', 'index.scip');
  const plan = indexPlan(root);
  if (plan.length === 0)
    throw new LspqError(
      'no_server',
      `no project lspq can index at ${root} (TypeScript/JavaScript, Python, Rust or Go); pass --root`,
    );
  const found = plan.map((r) => ({ ...r, binary: findCommand(r.indexer.command, root, req.env, ctx.trust)?.path }));
  const runnable = found.flatMap(({ binary, ...r }) => (binary ? [{ ...r, binary }] : []));
  const missing = [...new Set(found.filter((r) => !r.binary).map((r) => r.indexer))];
  if (runnable.length === 0)
    throw new LspqError(
      'server_not_installed',
      `no SCIP indexer for ${root} is installed; install one of: ${missing.map((i) => `${i.name} (${i.install})`).join('; ')}`,
    );
  if (missing.length > 0)
    ctx.warn?.(
      `${missing.map((i) => i.name).join(', ')} not installed: those files stay with the live servers (${missing.map((i) => i.install).join('; ')})`,
    );
  // lspq's own folder stays in the workspace: a `.lspq` that is a link out of it is refused (--out is the user's).
  if (req.out === undefined) guardWrite(out, root, false);
  makeFolders(dirname(out));
  const work = mkdtempSync(join(dirname(out), '.lspq-index-'));
  const done: { name: string; ms: number }[] = [];
  const deadline = deadlineFor(req);
  // Taken before any indexer runs: a file added while they do counts as added since.
  const start = { built: new Date(), dirs: foldersOf(root) };
  try {
    // The root first, so paths of projects below it start there (scip-index.ts).
    const parts: Buffer[] = [rootMetadata(root)];
    for (const [n, run] of runnable.entries()) {
      const { indexer, dir } = run;
      const part = join(work, `${n}-${indexer.name}.scip`);
      const started = performance.now();
      ctx.progress?.(`indexing ${dir} with ${indexer.name}`);
      const restricted = underTrustOf(indexer, dir, run.binary, req, ctx);
      if (!restricted) continue;
      // Not trusted, the indexer runs in its box: it writes only its part of the index.
      const box = ctx.trust.boxFor([dir, run.binary]);
      const env = indexerEnv(withUserPath({ ...req.env, ...restricted.env }));
      const command = box
        ? boxed([run.binary, ...indexer.args(dir, part)], box, {
            purpose: indexer.name,
            root: dir,
            binary: run.binary,
            cwd: dir,
            env,
            write: [work],
          })
        : { argv: [run.binary, ...indexer.args(dir, part)], env };
      const r = await runIndexer(command.argv, dir, command.env, deadline.remaining, ctx.signal);
      if (r.stopped === 'timeout')
        throw new LspqError(
          'timeout',
          `${indexer.name} did not finish indexing ${dir} within ${deadline.totalMs / 1000}s; it was stopped and nothing was written (retry with a larger --timeout)`,
        );
      if (r.stopped === 'cancelled')
        throw new LspqError('timeout', `indexing ${root} was cancelled; nothing was written`);
      if (r.code !== 0 || !existsSync(part))
        throw new LspqError(
          'server_failed',
          `${indexer.name} failed (exit ${r.code}) indexing ${dir}: ${r.tail.trim().split('\n').pop() ?? ''}; nothing was written`,
        );
      parts.push(readFileSync(part));
      done.push({ name: indexer.name, ms: Math.round(performance.now() - started) });
    }
    // Protobuf messages concatenated are one message with the repeated fields of all: one index.
    if (done.length === 0)
      throw new LspqError(
        'untrusted',
        `no indexer for ${root} may run: the workspace is not trusted ('lspq trust --explain' lists what trusting lets run, 'lspq trust' allows it); nothing was written`,
      );
    const whole = join(work, 'index.scip');
    const bytes = Buffer.concat(parts);
    writeFileSync(whole, bytes);
    const indexed = ScipIndex.load(whole, root);
    const manifest = describeFiles(
      indexed.root,
      [...indexed.documents.keys()],
      done.map((d) => d.name),
      gitHead(root, req.env),
      bytes,
      start,
    );
    writeFileSync(join(work, 'index.json'), `${JSON.stringify(manifest)}\n`);
    // The index and its manifest replace the old ones whole, the index first: cut short between the two,
    // the old manifest (which names the old index) is no longer read, and git decides what changed.
    renameSync(whole, out);
    renameSync(join(work, 'index.json'), manifestPath(out));
    // The user's own, by its content: read without trust wherever it lies.
    recordOwn(out, req.env);
    ctx.pool.caches.indexless.clear();
    if (out === join(root, '.lspq', 'index.scip')) writeOwnFile(join(root, '.lspq', '.gitignore'), '*\n', root);
    const read = readAs(out, root);
    const table = await prepareTable(out, read.root, read.rebase, req, ctx);
    return {
      file: out,
      root: indexed.root,
      documents: indexed.documents.size,
      bytes: indexed.bytes,
      indexers: done,
      ...(manifest.commit ? { commit: manifest.commit } : {}),
      ...(table ? { table } : {}),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** lspq index --fetch URL: CI's index for HEAD or its merge base, cached, and named as the checkout's. */
async function takeFetched(template: string, req: IndexQuery, ctx: HandlerContext): Promise<IndexResult> {
  if (!/^https?:\/\//.test(template))
    throw new LspqError('usage', `--fetch takes an http(s) URL, {commit} in it, not '${template}'`);
  const { GitRepo } = await import('../../git/repo');
  const repo = await GitRepo.open(req.root ?? req.cwd, req.env);
  if (!repo)
    throw new LspqError('usage', `--fetch takes the index for a commit: ${req.root ?? req.cwd} is no git checkout`);
  const commits = await commitsFor(repo.top, req.env);
  const [newest] = commits;
  if (newest === undefined)
    throw new LspqError('usage', `${repo.top} has no commit yet; nothing to fetch an index for`);
  ctx.progress?.(`fetching the index for ${newest.slice(0, 12)}`);
  guardWrite(join(repo.top, '.lspq', 'fetched.json'), repo.top, false);
  makeFolders(join(repo.top, '.lspq'));
  const fetched = await fetchIndex(template, commits, repo.top, req.env, ctx.signal);
  ctx.pool.caches.indexless.clear();
  if (!fetched)
    throw new LspqError(
      'unsupported',
      `no index at ${template} for HEAD ${commits.map((c) => c.slice(0, 12)).join(' or its merge base ')}; build one with 'lspq index', or the live servers answer`,
    );
  const index = ScipIndex.load(fetched.file, repo.top, true);
  // Read as the checkout's own (index-files.ts): paths from its top, whatever CI's root was.
  const table = await prepareTable(fetched.file, repo.top, true, req, ctx);
  return {
    file: fetched.file,
    root: repo.top,
    documents: index.documents.size,
    bytes: index.bytes,
    indexers: index.tools.map((name) => ({ name, ms: 0 })),
    commit: fetched.commit,
    url: fetched.url,
    ...(table ? { table } : {}),
  };
}

/**
 * How questions will read an index written at `out`: one in a folder's
 * `.lspq/` describes that folder, its paths from there (index-files.ts:
 * `beside`); one elsewhere is named (--index, LSPQ_INDEX) and read at the
 * root it names.
 */
function readAs(out: string, root: string): { root: string; rebase: boolean } {
  if (basename(out) === 'index.scip' && basename(dirname(out)) === '.lspq')
    return { root: dirname(dirname(out)), rebase: true };
  return { root, rebase: false };
}

/**
 * The index's table, made now, keyed as the question that reads it keys
 * it (index-tables.ts), so its first answer reads rows rather than the
 * index; undefined where it cannot be made (that question reads it whole).
 */
async function prepareTable(
  file: string,
  root: string,
  rebase: boolean,
  req: IndexQuery,
  ctx: HandlerContext,
): Promise<IndexResult['table']> {
  ctx.progress?.(`making the table of ${file} for its questions`);
  const started = performance.now();
  const table = tablePath(file, root, rebase, req.env);
  if (!(await ensureTable(file, root, rebase, table, ctx.log))) return undefined;
  return { file: table, ms: Math.round(performance.now() - started) };
}
