/**
 * `lspq git`: decide, refuse or run, then pass git's output through or
 * parse it for --json. The policy, the neutralising and the parsers are
 * pure; the git processes start in run.ts.
 */
import type { CommandOutput } from '../cli/_run';
import { LspqError, usage } from '../errors';
import { renderGeneric, renderJson } from '../render/git';
import { colorConfig, gitArgv, gitEnv, jsonCalls, jsonConflict } from './invocation';
import { neutralize, type Neutralized } from './neutralize';
import { parseBranches } from './parse-branch';
import { parseDiff } from './parse-diff';
import { parseLog } from './parse-log';
import { parseStatus } from './parse-status';
import { locate, plan, probeNames, refusal } from './policy';
import { commitsAmong, readConfig, spawnGit, type GitResult } from './run';
import type { Plan } from './types';

export interface GitOptions {
  json: boolean;
  allowWrite: boolean;
  allowDestructive: boolean;
  /** lspq's stdout is a terminal and NO_COLOR is unset. */
  color: boolean;
  cwd: string;
  env: Record<string, string>;
}

function gitFailed(p: Plan, r: GitResult): LspqError {
  return new LspqError('git_failed', r.stderr.trim() || `git ${p.command.join(' ')} exited with code ${r.exit}`);
}

export async function runGit(words: string[], o: GitOptions): Promise<CommandOutput> {
  if (words.length === 0) throw usage("missing git subcommand: write 'lspq git status' (see 'lspq git --help' for the policy)");
  // Refusals that need no look at the repository come first: a refused call runs nothing at all.
  const early = locate(words).refused;
  if (early) throw new LspqError('refused', refusal(early, o.allowWrite, o.allowDestructive) as string);
  const config = await readConfig(o.cwd, o.env);
  const commits = await commitsAmong(probeNames(words), o.cwd, o.env);
  const p = plan(words, { config, commits });
  const refused = refusal(p.verdict, o.allowWrite, o.allowDestructive);
  if (refused) throw new LspqError('refused', refused);
  const neutralized = neutralize(config, p.verdict.cls, o.env);
  if (o.json && p.json !== 'none') return runParsed(p, neutralized, o);

  const env = gitEnv(o.env, neutralized, colorConfig(!o.json && o.color));
  if (!o.json) {
    const r = await spawnGit(gitArgv(p), { cwd: o.cwd, env, stderr: 'inherit' });
    return { stdout: r.stdout, exit: r.exit === 0 ? 0 : 1 };
  }
  const r = await spawnGit(gitArgv(p), { cwd: o.cwd, env, stderr: 'pipe' });
  // A failure with a message is an error; a quiet non-zero exit (grep found nothing) is an answer.
  if (r.exit !== 0 && r.stderr.trim()) throw gitFailed(p, r);
  return { stdout: renderGeneric(p, r), exit: r.exit === 0 ? 0 : 1 };
}

async function runParsed(p: Plan, neutralized: Neutralized, o: GitOptions): Promise<CommandOutput> {
  const conflict = jsonConflict(p);
  if (conflict) throw usage(`${conflict} does not go with --json, which picks git ${p.command.join(' ')}'s output format itself; drop one of them`);
  // Unquoted UTF-8 paths in patch headers, so they match the NUL-separated ones.
  const env = gitEnv(o.env, neutralized, [...colorConfig(false), ['core.quotepath', 'false']]);
  const outputs: string[] = [];
  const warnings: string[] = [];
  for (const argv of jsonCalls(p)) {
    const r = await spawnGit(argv, { cwd: o.cwd, env, stderr: 'pipe' });
    // diff --exit-code answers 1 for "there are differences": not a failure.
    const answered = r.exit === 0 || (p.json === 'diff' && r.exit === 1 && !r.stderr.trim());
    if (!answered) throw gitFailed(p, r);
    outputs.push(r.stdout);
    if (r.stderr.trim()) warnings.push(r.stderr.trim());
  }
  const [first = '', second = ''] = outputs;
  const doc =
    p.json === 'status' ? parseStatus(first) : p.json === 'log' ? parseLog(first) : p.json === 'branch' ? parseBranches(first) : parseDiff(first, second);
  return { stdout: renderJson(doc), exit: 0, ...(warnings.length ? { stderr: [...new Set(warnings)].join('\n') } : {}) };
}
