/**
 * diag: which files (named, --staged, --all, git's changed files, or those
 * a --patch touches), the severities, and the exit code, by the rule every
 * diagnosis ends in (render/verdict.ts).
 */
import { SEVERITIES } from '../../answers/diagnostics';
import { GitRepo } from '../../git/repo';
import { usage } from '../../common/errors';
import { resolvePath } from '../../common/paths';
import { inNeverSources } from '../../project/folders';
import { contextArgs, serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { severityFlag } from '../options';
import { githubCommands, sarifLog } from './ci-formats';
import { verdict } from '../../render/verdict';
import { diagJson, hiddenLine, renderDiag, skippedLines, summaryLine, tsconfigLines } from './render';
import { chainFor } from '../patches/source';
import { DiagShape } from './shape';

/** The staged, and the changed and untracked files of the repository around `cwd`; undefined outside one. */
async function gitFiles(cwd: string, env: Record<string, string>) {
  const repo = await GitRepo.open(cwd, env);
  if (!repo) return undefined;
  const { staged, changed } = await repo.changedFiles();
  // An untracked `.venv` git does not ignore is thousands of changed files, and none of them sources.
  const never = inNeverSources(repo.top);
  return { staged: staged.filter((p) => !never(p)), changed: changed.filter((p) => !never(p)) };
}

export const diag = defineCommand({
  summary: 'diagnostics for files, --staged changes or --all the workspace',
  args: {
    ...serverArgs,
    ...contextArgs,
    files: {
      type: 'positional',
      required: false,
      description: 'Files to check (default: the changed files, in git)',
      valueHint: 'FILE...',
    },
    staged: { type: 'boolean', description: 'The staged files as the commit holds them' },
    all: { type: 'boolean', description: 'Every source file of the workspace' },
    since: {
      type: 'string',
      description: 'Only what is new since REV',
      valueHint: 'REV',
    },
    'changed-lines': {
      type: 'boolean',
      description: 'Only lines added or changed',
    },
    patch: {
      type: 'string',
      repeats: true,
      description:
        'What a unified diff would introduce (callers included), checked in memory, never written; - reads it from stdin; with --all, every problem of the patched files; given again, a chain: each on top of the ones before, the first that introduces a problem named',
      valueHint: 'FILE|-',
    },
    format: {
      type: 'string',
      description: 'sarif (SARIF 2.1.0, for code scanning) or github (workflow commands, inline on a pull request)',
      valueHint: 'F',
    },
    severity: {
      type: 'string',
      description: 'List this severity and worse (default warning; the rest counted)',
      valueHint: 'S',
    },
    'fail-on': {
      type: 'string',
      description: 'Exit 1 at this severity or worse (default error); never: always exit 0',
      valueHint: 'S',
    },
  },
  values: { format: ['sarif', 'github'], severity: SEVERITIES, 'fail-on': [...SEVERITIES, 'never'] },
  examples: [
    'lspq diag src/broken.ts',
    'lspq diag --staged --fail-on warning',
    'lspq diag --all --json',
    'lspq diag --since main --all',
    'lspq diag --patch fix.patch',
    'lspq diag --patch thrice.patch --patch fix.patch',
  ],
  process: 'daemon',
  mcp: {
    kind: 'question',
    text: { patch: 'A unified diff: what it would introduce, not written' },
  },
  stdin: { flag: 'patch' },
  variadic: true,
  handlers: { diag: async () => (await import('./handler')).diag },
  run: async (args, { line, ask }) => {
    const named = args._.map((f) => resolvePath(line.cwd, f));
    const format = args.format;
    if (format !== undefined && format !== 'sarif' && format !== 'github')
      throw usage(`--format takes sarif or github, not '${format}' (--json for lspq's own JSON)`);
    if (format !== undefined && args.json) throw usage('give --format or --json, not both');
    const since = args.since;
    const changedLines = args['changed-lines'] === true;
    const patches = args.patch ?? [];
    if (patches.length > 1 && args.all === true)
      throw usage("--all lists the old problems of one patch's files: give one --patch with it, or leave --all out");
    if (args.patch !== undefined && (named.length > 0 || args.staged || since !== undefined || changedLines))
      throw usage(
        '--patch checks the files the patch touches and their callers: give it without FILEs, --staged, --since or --changed-lines',
      );
    const compared = since !== undefined || changedLines;
    // --staged says what "now" is and --all how far to look; FILEs narrow the changed files.
    if (named.length > 0 && args.all === true) throw usage('give FILEs or --all, not both');
    if (named.length > 0 && args.staged === true && !compared)
      throw usage('give FILEs or --staged, not both: --staged checks the staged files');
    // never (or none): list what is found and exit 0, for a hook or CI step that only reports.
    const never = args['fail-on'] === 'never' || args['fail-on'] === 'none';
    const failOn = never ? undefined : (severityFlag(args['fail-on'], '--fail-on', ['never', 'none']) ?? 'error');
    const shown = severityFlag(args.severity, '--severity');
    let files = named;
    let changed = false;
    // --staged: the engine reads the index once, for the list and the staged text together.
    if (args.patch === undefined && !compared && !args.staged && !args.all && named.length === 0) {
      const found = await gitFiles(line.cwd, line.env);
      if (!found) throw usage('no files given and not in a git repository: name FILEs, or use --all');
      files = found.changed;
      changed = true;
    }
    const query = {
      op: 'diag' as const,
      files,
      all: args.all === true,
      staged: args.staged === true,
      changed,
      ...(shown ? { severity: shown } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(changedLines ? { changedLines } : {}),
      ...(patches.length > 0 ? { patch: await chainFor(patches, line) } : {}),
      // A chain stops at the first patch that fails: the ones after it build on a broken tree.
      ...(patches.length > 1 && failOn ? { failOn } : {}),
    };
    const result = await ask(query, args);
    // CI places annotations by paths from the repository's top, wherever in it lspq ran.
    const top = format ? ((await GitRepo.open(line.cwd, line.env))?.top ?? line.cwd) : line.cwd;
    const out = format
      ? {
          stdout: format === 'sarif' ? `${JSON.stringify(sarifLog(result, top))}\n` : githubCommands(result, top),
          stderr: [summaryLine(result), hiddenLine(result)].filter(Boolean).join('\nlspq: '),
          exit: 0 as const,
        }
      : present(result, args.json, { human: renderDiag, json: diagJson, found: () => true }, line);
    // A file that could not be checked is said on its own line, and the rest reported.
    const skipped = skippedLines(result, line.cwd);
    if (skipped.length > 0) out.warnings = [...skipped, ...(out.warnings ?? [])];
    const judged = verdict(result, failOn, line.cwd);
    const said = [...tsconfigLines(result, line.cwd), ...judged.notes, ...judged.gaps];
    const stderr = [out.stderr, ...said].filter((l) => l).join('\nlspq: ');
    return { ...out, ...(stderr ? { stderr } : {}), exit: judged.exit };
  },
  shape: DiagShape,
  // Every server may publish diagnostics; how lspq knows they are complete is per server.
  capabilities: { diag: () => true },
});
