/**
 * One `lspq git` call as data: decided by the policy, refused or run, and
 * git's output either passed along or parsed for --json. The policy, the
 * neutralising and the parsers are pure; the git processes start in run.ts.
 * Rendering is the caller's (the git command).
 */
import { LspqError, usage } from '../common/errors';
import { colorConfig, gitArgv, gitEnv, jsonCalls, jsonConflict } from './invocation';
import { neutralize, type Neutralized } from './neutralize';
import { parseBranches } from './parse-branch';
import { parseDiff } from './parse-diff';
import { parseLog } from './parse-log';
import { parseStatus } from './parse-status';
import { locate, plan, probeNames, refusal } from './policy';
import type { GitAccess } from './boxed-git';
import { commitsAmong, readConfig, spawnGit, type GitResult } from './run';
import type { ConfigEntry, GitClass, Plan } from './types';

export interface GitCallOptions {
  json: boolean;
  allowWrite: boolean;
  allowDestructive: boolean;
  /** The caller's stdout is a terminal and NO_COLOR is unset: git colours its passed-through output. */
  color: boolean;
  cwd: string;
  env: Record<string, string>;
}

/** What a call came to: git's own output as it wrote it, or (--json) a parsed document. */
export type GitCallResult =
  | { kind: 'passthrough'; stdout: string; exit: number }
  | { kind: 'parsed'; doc: object; warnings: string[] }
  /** --json for a subcommand lspq does not parse: git's output as strings, with the class it ran under. */
  | { kind: 'raw'; subcommand: string; class: GitClass; result: GitResult };

/** The subcommands that reach another repository: the only ones a box lets reach the network. */
const NETWORK = new Set(['fetch', 'pull', 'ls-remote', 'clone', 'remote', 'submodule']);

/** What the call may change in its box, by the policy's verdict: a read changes nothing. */
function accessOf(p: Plan): GitAccess {
  // Before the class: a fetch the policy reads as read still writes FETCH_HEAD and remote refs.
  if (p.command[0] === 'push') return 'push';
  if (NETWORK.has(p.command[0] ?? '')) return 'fetch';
  return p.verdict.cls === 'read' ? 'read' : 'write';
}

/** The remotes that are folders on this machine (a path or file:// URL): a fetch reads them, a push writes them. */
function localRemotes(config: ConfigEntry[]): string[] {
  const paths: string[] = [];
  for (const e of config) {
    if (!/^remote\..+\.(url|pushurl)$/.test(e.key) || !e.value) continue;
    const value = e.value.startsWith('file://') ? decodeURIComponent(e.value.slice('file://'.length)) : e.value;
    if (value.startsWith('/')) paths.push(value);
  }
  return paths;
}

function gitFailed(p: Plan, r: GitResult): LspqError {
  return new LspqError('git_failed', r.stderr.trim() || `git ${p.command.join(' ')} exited with code ${r.exit}`);
}

export async function gitCall(words: string[], o: GitCallOptions): Promise<GitCallResult> {
  if (words.length === 0)
    throw usage("missing git subcommand: write 'lspq git status' (see 'lspq git --help' for the policy)");
  // Refusals that need no look at the repository come first: a refused call runs nothing at all.
  const early = locate(words).refused;
  if (early) throw new LspqError('refused', refusal(early, o.allowWrite, o.allowDestructive) as string);
  const config = await readConfig(o.cwd, o.env);
  const commits = await commitsAmong(probeNames(words), o.cwd, o.env);
  const p = plan(words, { config, commits });
  const refused = refusal(p.verdict, o.allowWrite, o.allowDestructive);
  if (refused) throw new LspqError('refused', refused);
  const neutralized = neutralize(config, p.verdict.cls, o.env);
  if (o.json && p.json !== 'none') return parsedCall(p, neutralized, o);

  const env = gitEnv(o.env, neutralized, colorConfig(!o.json && o.color));
  const access = accessOf(p);
  const reach = access === 'fetch' || access === 'push' ? localRemotes(config) : [];
  if (!o.json) {
    // git's own messages and progress reach the terminal as git wrote them.
    const r = await spawnGit(gitArgv(p), { cwd: o.cwd, env, stderr: 'inherit', pathspecs: 'git', access, reach });
    return { kind: 'passthrough', stdout: r.stdout, exit: r.exit };
  }
  const r = await spawnGit(gitArgv(p), { cwd: o.cwd, env, stderr: 'pipe', pathspecs: 'git', access, reach });
  // A failure with a message is an error; a quiet non-zero exit (grep found nothing) is an answer.
  if (r.exit !== 0 && r.stderr.trim()) throw gitFailed(p, r);
  return { kind: 'raw', subcommand: p.command.join(' '), class: p.verdict.cls, result: r };
}

async function parsedCall(p: Plan, neutralized: Neutralized, o: GitCallOptions): Promise<GitCallResult> {
  const conflict = jsonConflict(p);
  if (conflict)
    throw usage(
      `${conflict} does not go with --json, which picks git ${p.command.join(' ')}'s output format itself; drop one of them`,
    );
  // Unquoted UTF-8 paths in patch headers, so they match the NUL-separated ones.
  const env = gitEnv(o.env, neutralized, [...colorConfig(false), ['core.quotepath', 'false']]);
  const outputs: string[] = [];
  const warnings: string[] = [];
  for (const argv of jsonCalls(p)) {
    const r = await spawnGit(argv, { cwd: o.cwd, env, stderr: 'pipe', pathspecs: 'git' });
    // diff --exit-code answers 1 for "there are differences": not a failure.
    const answered = r.exit === 0 || (p.json === 'diff' && r.exit === 1 && !r.stderr.trim());
    if (!answered) throw gitFailed(p, r);
    outputs.push(r.stdout);
    if (r.stderr.trim()) warnings.push(r.stderr.trim());
  }
  const [first = '', second = ''] = outputs;
  const doc =
    p.json === 'status'
      ? parseStatus(first)
      : p.json === 'log'
        ? parseLog(first)
        : p.json === 'branch'
          ? parseBranches(first)
          : parseDiff(first, second);
  return { kind: 'parsed', doc, warnings: [...new Set(warnings)] };
}
