/**
 * The one place lspq git starts processes: git, by argv (never a shell),
 * with stdin closed so nothing can wait for input.
 */
import { LspqError, messageOf } from '../common/errors';
import { gitCommand, type GitAccess } from './boxed-git';
import { configParameters } from './neutralize';
import { parseConfigList } from './parse-config';
import type { ConfigEntry } from './types';

export interface GitResult {
  stdout: string;
  stderr: string;
  exit: number;
}

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  /** 'inherit' lets git's own messages and progress reach the user as git wrote them. */
  stderr: 'pipe' | 'inherit';
  /** 'git': pathspecs as git reads them (`lspq git`'s words, a glob lspq wrote); else every path means itself. */
  pathspecs?: 'git';
  /** What the call may change, untrusted and in its box: nothing (the default), the work tree and repository, the network too. */
  access?: GitAccess;
  /** Repositories on this machine a network call reaches (its local remotes): read, and written by a push. */
  reach?: string[];
}

/**
 * The environment git runs in: paths lspq gives git are literal, so a
 * folder named `:x`, `*` or `[a]` means itself, never pathspec magic.
 */
function withPathspecs(env: Record<string, string>, pathspecs: 'git' | undefined): Record<string, string> {
  if (pathspecs === 'git') return env;
  // git refuses literal beside any other global pathspec setting the caller's environment may hold.
  const { GIT_GLOB_PATHSPECS: _g, GIT_NOGLOB_PATHSPECS: _n, GIT_ICASE_PATHSPECS: _i, ...rest } = env;
  return { ...rest, GIT_LITERAL_PATHSPECS: '1' };
}

export async function spawnGit(args: readonly string[], options: SpawnOptions): Promise<GitResult> {
  let proc: Bun.Subprocess<'ignore', 'pipe', 'pipe' | 'inherit'>;
  try {
    const run = gitCommand(
      args,
      options.cwd,
      withPathspecs(options.env, options.pathspecs),
      options.access ?? 'read',
      options.reach ?? [],
    );
    proc = Bun.spawn(run.argv, {
      cwd: options.cwd,
      env: run.env,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: options.stderr,
    });
  } catch (err) {
    const why = messageOf(err);
    throw new LspqError('git_failed', `could not start git (${why}); install git and make sure it is on PATH`);
  }
  const stderr = proc.stderr instanceof ReadableStream ? new Response(proc.stderr).text() : Promise.resolve('');
  const [stdout, errText, exit] = await Promise.all([new Response(proc.stdout).text(), stderr, proc.exited]);
  return { stdout, stderr: errText, exit };
}

/**
 * git run to its end before the caller goes on, for a decision taken where
 * nothing may wait (trust's, as a server is chosen): its output and exit,
 * or undefined where git cannot start or runs past `timeoutMs`.
 */
export function runGitSync(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): GitResult | undefined {
  try {
    const run = gitCommand(args, options.cwd, withPathspecs(options.env, undefined), 'read', []);
    const r = Bun.spawnSync(run.argv, {
      cwd: options.cwd,
      env: run.env,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      timeout: options.timeoutMs,
    });
    if (r.exitCode === null) return undefined;
    return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exit: r.exitCode };
  } catch {
    return undefined;
  }
}

/** The environment for lspq's own look-ups before the real call: nothing the repository configures may run. */
export function probeEnv(env: Record<string, string>): Record<string, string> {
  const safe: Array<[string, string]> = [
    ['core.fsmonitor', 'false'],
    ['core.hookspath', '/dev/null'],
  ];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_PARAMETERS: configParameters(safe, env.GIT_CONFIG_PARAMETERS),
  };
}

/** The caller's environment for a git probe of another folder: no GIT_DIR or index of the caller's (a hook's) steers it. */
export function gitProbeEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (
      v === undefined ||
      /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|NAMESPACE|CEILING_DIRECTORIES)$/.test(k)
    )
      continue;
    clean[k] = v;
  }
  return probeEnv(clean);
}

/** Every configuration entry git will see here, with its scope. Reading configuration runs nothing. */
export async function readConfig(cwd: string, env: Record<string, string>): Promise<ConfigEntry[]> {
  const r = await spawnGit(['config', '--list', '--show-scope', '-z'], { cwd, env: probeEnv(env), stderr: 'pipe' });
  if (r.exit !== 0)
    throw new LspqError('git_failed', r.stderr.trim() || `git config --list exited with code ${r.exit}`);
  return parseConfigList(r.stdout);
}

/** The names among `names` that are commits here. */
export async function commitsAmong(
  names: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const name of names) {
    const r = await spawnGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`], {
      cwd,
      env: probeEnv(env),
      stderr: 'pipe',
    });
    if (r.exit === 0) found.add(name);
  }
  return found;
}
