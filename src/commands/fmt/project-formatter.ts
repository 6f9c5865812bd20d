/**
 * The formatter a file's project names (src/lsp/servers/formatters.ts), run
 * as the project runs it: found in its node_modules/.bin or Python
 * environment first, then PATH, and given the file on stdin. Its
 * configuration and plugins are the workspace's code: not trusted, it runs
 * in the box; where no box can be made, it is left out and the server's
 * formatter answers instead (said by the answer).
 */
import type { Containment } from '../../box/containment';
import { boxed } from '../../box/command';
import { LspqError } from '../../common/errors';
import { displayPath } from '../../common/paths';
import type { Deadline, HandlerContext } from '../../engine/context';
import { findPythonEnv, type PythonEnv } from '../../lsp/servers/install-places';
import { formatterWorkspace, namedFormatter, type NamedFormatter } from '../../lsp/servers/formatters';
import { findCommand, withUserPath } from '../../lsp/servers/locate';
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import type { FmtQuery } from './question';

/** The project's formatter, found and ready to run for a file. */
export interface ProjectRun extends NamedFormatter {
  binary: string;
  /** The workspace it runs for (its checkout's top): what trust and the box judge. */
  root: string;
  /** Where it runs: the folder of the configuration that names it, as the project runs it from there. */
  cwd: string;
  env: Record<string, string>;
  /** The box it runs in, not trusted. */
  box?: Containment;
  python?: PythonEnv;
}

/** What a file's project says of its formatting: its formatter to run, or one it names that may not run here. */
export type ProjectChoice = { run: ProjectRun } | { passedOver: NamedFormatter } | undefined;

/**
 * The formatter `path`'s project names, as it may run for this question:
 * none named, one left out (not trusted, no box: said once by the
 * question's trust), or found and ready. Named but installed nowhere is a
 * one-line error naming it and its install.
 */
export function projectFormatter(path: string, req: FmtQuery, ctx: HandlerContext): ProjectChoice {
  const named = namedFormatter(path);
  if (!named) return undefined;
  const { formatter, config } = named;
  const root = formatterWorkspace(named, ctx.trust);
  if (root === undefined) return { passedOver: named };
  const python = formatter.python ? findPythonEnv(dirname(path), root, req.env) : undefined;
  const found = findCommand(formatter.command, dirname(path), req.env, ctx.trust, python);
  if (!found)
    throw new LspqError(
      'server_not_installed',
      `${formatter.name} is not installed, and ${displayPath(config, req.cwd)} names it the project's formatter: install it (${formatter.install}), or give --server to format with the server's formatter`,
    );
  const box = ctx.trust.boxFor([root, found.path, ...(python ? [python.prefix] : [])]);
  return {
    run: {
      ...named,
      binary: found.path,
      root,
      cwd: dirname(config),
      env: withUserPath(req.env),
      ...(box ? { box } : {}),
      ...(python ? { python } : {}),
    },
  };
}

/** The line of a formatter's error output that says what went wrong, its file (`path`) named as `shown`. */
export function errorLine(stderr: string, path: string, shown: string): string | undefined {
  // Its file named as the user named it, once: `prettier cannot parse a.ts: SyntaxError...`, not `a.ts: a.ts: ...`.
  const named = (line: string) => line.replaceAll(path, shown).replaceAll('<stdin>', shown).replace(`${shown}: `, '');
  const lines = stderr
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*(\[error\]|error:)\s*/i, '').trim())
    .filter(Boolean);
  const first = lines[0];
  if (first === undefined) return undefined;
  // biome heads each diagnostic with its place and category (`a.ts:2:1 parse ━━━`); its message follows, after `×`.
  const heading = /^(\S+:\d+:\d+)\s+\S+\s+━+$/.exec(first);
  const message = heading
    ? lines
        .find((l) => l.startsWith('×'))
        ?.slice(1)
        .trim()
    : undefined;
  if (heading && message) return named(`${message} (${heading[1]})`);
  // rustfmt names the place on a line after (` --> <stdin>:3:5`).
  const place = /<stdin>:(\d+:\d+)/.exec(stderr)?.[1];
  return place && !first.includes('<stdin>') ? `${named(first)} (${shown}:${place})` : named(first);
}

/** How long a formatter is given to stop after the question's time is up before its whole group is killed. */
const FORMATTER_GRACE_MS = 1_000;

/**
 * Runs a formatter with `text` on stdin to its end, in a process group of
 * its own, killed whole when the question runs out of time or is
 * cancelled: a helper it started (a shell script's child) outlives nothing.
 */
function runOnce(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  text: string,
  budgetMs: number,
  signal: AbortSignal | undefined,
): Promise<{ out: string; err: string; code: number | null; killed?: string; stopped?: 'timeout' | 'cancelled' }> {
  return new Promise((resolve) => {
    const [binary = '', ...args] = argv;
    const child = spawn(binary, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let stopped: 'timeout' | 'cancelled' | undefined;
    const group = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {}
    };
    const stop = (why: 'timeout' | 'cancelled') => {
      stopped ??= why;
      group('SIGTERM');
      setTimeout(() => group('SIGKILL'), FORMATTER_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop('timeout'), budgetMs);
    const onAbort = () => stop('cancelled');
    signal?.addEventListener('abort', onAbort);
    let done = false;
    const finish = (code: number | null, killed?: string, failed?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      group('SIGKILL');
      const said = Buffer.concat(err).toString('utf8');
      resolve({
        out: Buffer.concat(out).toString('utf8'),
        err: failed ?? said,
        code,
        ...(killed ? { killed } : {}),
        ...(stopped ? { stopped } : {}),
      });
    };
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // A formatter that exits before reading all of stdin is judged by its exit, not the broken pipe.
    child.stdin.on('error', () => {});
    child.on('error', (e) => finish(127, undefined, e.message));
    // Its output is in the pipes once it exits: what it left running would hold them open.
    child.on('exit', () => group('SIGKILL'));
    child.on('close', (code, sig) => finish(code, sig ?? undefined));
    child.stdin.end(text, 'utf8');
  });
}

/** `text` formatted by the project's formatter as the file `path`: what it printed, or a one-line error naming it. */
export async function runFormatter(
  run: ProjectRun,
  path: string,
  text: string,
  req: FmtQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<string> {
  const { formatter } = run;
  const shown = displayPath(path, req.cwd);
  const argv = [run.binary, ...formatter.args(path, run.config)];
  const command = run.box
    ? boxed(argv, run.box, {
        purpose: formatter.name,
        root: run.root,
        binary: run.binary,
        cwd: run.cwd,
        env: run.env,
        ...(run.python ? { read: [run.python.prefix] } : {}),
      })
    : { argv, env: run.env };
  const r = await runOnce(command.argv, run.cwd, command.env, text, deadline.remaining, ctx.signal);
  if (r.stopped === 'cancelled')
    throw new LspqError('timeout', `formatting ${shown} was cancelled; nothing was written`);
  if (r.stopped === 'timeout')
    throw new LspqError(
      'timeout',
      `${formatter.name} did not finish formatting ${shown} within ${deadline.totalMs / 1000}s; it was stopped and nothing was written (retry with a larger --timeout)`,
    );
  if (r.code === 0) return r.out;
  const said = errorLine(r.err, path, shown);
  if (said && formatter.parseError.test(r.err))
    throw new LspqError(
      'unsupported',
      `${formatter.name} cannot parse ${shown}: ${said}; fix the syntax error, then format`,
    );
  const how = r.killed ? `killed by ${r.killed}` : `exit ${r.code}`;
  const config = displayPath(run.config, req.cwd);
  const what = said
    ? `: ${said}; fix what it says`
    : ` and said nothing; run ${displayPath(run.binary, req.cwd)} on it to see why`;
  throw new LspqError(
    'server_failed',
    `${formatter.name} failed on ${shown} (${how})${what} (${config} names it the project's formatter), or give --server to format with the server's formatter`,
  );
}
