import { defineCommand } from 'citty';
import { usage } from '../errors';
import { resolvePath } from '../protocol/paths';
import type { DiagResult, Severity } from '../protocol/messages';
import { diagJson, renderDiag } from '../render/diag';
import { gitFiles, stagedFiles } from './_git-files';
import { callerContext, jsonWanted, serverArgs, useDaemon } from './_shared';
import { isTerminal, processEnv, wantsColor } from './_process';
import { ask, present, type CommandOutput } from './_run';

const SEVERITIES = ['error', 'warning', 'info', 'hint'];

function severity(value: unknown, flag: string): Severity | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !SEVERITIES.includes(value)) throw usage(`${flag} takes one of ${SEVERITIES.join(', ')}, not '${String(value)}'`);
  return value as Severity;
}

/** A spinner-free progress line on a terminal's stderr, rewritten in place. */
function progressPrinter(): ((p: { done: number; total: number; what: string }) => void) | undefined {
  if (!isTerminal(2)) return undefined;
  return (p) => void Bun.write(Bun.stderr, `\r\u001b[2Klspq: diagnosing ${p.what}`);
}

export default defineCommand({
  meta: { name: 'diag', description: 'Diagnostics for FILEs, --staged files, the changed files (default in git) or --all the workspace' },
  args: {
    ...serverArgs,
    files: { type: 'positional', required: false, description: 'Files to check', valueHint: 'FILE...' },
    staged: { type: 'boolean', description: 'The files staged in git (for a pre-commit hook)' },
    all: { type: 'boolean', description: 'Every source file of the workspace' },
    severity: { type: 'string', description: 'Show only this severity and worse (error, warning, info, hint)', valueHint: 'S' },
    'fail-on': { type: 'string', description: 'Exit 1 at this severity or worse (default error)', valueHint: 'S' },
  },
  run: async ({ args }): Promise<CommandOutput> => {
    const cwd = process.cwd();
    const env = processEnv();
    const named = args._.map((f) => resolvePath(cwd, f));
    const modes = [named.length > 0, args.staged === true, args.all === true].filter(Boolean).length;
    if (modes > 1) throw usage('give FILEs, --staged or --all, not more than one of them');
    let files = named;
    let changed = false;
    if (args.staged) files = await stagedFiles(cwd, env);
    else if (!args.all && named.length === 0) {
      const found = await gitFiles(cwd, env);
      if (found === undefined) throw usage('no files given and not in a git repository: name FILEs, or use --all');
      files = found.changed;
      changed = true;
    }
    const failOn = severity(args['fail-on'], '--fail-on') ?? 'error';
    const shown = severity(args.severity, '--severity');
    const request = {
      op: 'diag' as const,
      files,
      all: args.all === true,
      staged: args.staged === true,
      changed,
      ...(shown ? { severity: shown } : {}),
      ...callerContext(args, cwd, env),
    };
    const onProgress = jsonWanted(args, env) ? undefined : progressPrinter();
    const result = (await ask(request, useDaemon(args, env), onProgress)) as DiagResult;
    if (onProgress) await Bun.write(Bun.stderr, '\r\u001b[2K');
    const out = present(result, args, { human: renderDiag, json: diagJson, found: () => true }, { cwd, env, color: wantsColor(env) });
    if (result.incomplete.length > 0) {
      const list = result.incomplete.length > 3 ? `${result.incomplete.length} files` : result.incomplete.join(', ');
      const note = `diagnostics are incomplete for ${list}: the server did not finish in time; retry with a larger --timeout`;
      return { ...out, stderr: out.stderr ? `${out.stderr}\nlspq: ${note}` : note, exit: 3 };
    }
    const failing = SEVERITIES.slice(0, SEVERITIES.indexOf(failOn) + 1).some((s) => result.summary[s as Severity] > 0);
    return { ...out, exit: failing ? 1 : 0 };
  },
});
