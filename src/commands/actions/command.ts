/** actions: the code actions at a position or lines; --apply N applies one. */
import { ACTION_KINDS } from '../../common/action-kinds';
import { usage } from '../../common/errors';
import { type LineSpec, namesPlace, parseLineTarget, parseTarget, type TargetSpec } from '../../common/target';
import { editArgs, targetArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { verifyFlags, withVerdict } from '../edit-flags';
import { isFile, positiveInt, type TargetFlags, targetFrom } from '../options';
import { displayPath } from '../../common/paths';
import { plural } from '../../render/style';
import type { ActionsResult } from './question';
import { ACTION_ID } from './action-id';
import { actionsJson, didSomething, renderActions } from './render';
import { ActionsShape } from './shape';

/** A position (FILE:LINE:COL, FILE:LINE:NAME, --symbol) or lines (FILE:LINE, FILE:START-END). */
function placeFrom(args: TargetFlags, cwd: string): TargetSpec | LineSpec {
  if (args.symbol || !args.target) return targetFrom(args, cwd);
  // FILE:LINE:COL, FILE:LINE:NAME and a text pattern name a position; FILE:LINE and FILE:START-END lines.
  if (namesPlace(args.target)) return parseTarget(args.target, cwd, positiveInt(args.nth, '--nth') ?? 1, isFile);
  return parseLineTarget(args.target, cwd, isFile);
}

/** The miss: where, of which kinds, and the disabled ones left out (`no code actions of kind source at src/main.ts:1`). */
const noActions = (kinds: string[] | undefined) => (r: ActionsResult, cwd: string) => {
  // A position is a point (FILE:LINE:COL); FILE:LINE and FILE:START-END are whole lines.
  const { line, column, endLine, endColumn } = r.span;
  const point = line === endLine && column === endColumn;
  const lines = point ? `${line}:${column}` : endLine > line ? `${line}-${endLine}` : `${line}`;
  const of = kinds?.length ? ` of kind ${kinds.join(', ')}` : '';
  const hidden = r.hidden > 0 ? ` (${plural(r.hidden, 'disabled one')} not shown; --all lists them with why)` : '';
  return `no code actions${of} at ${displayPath(r.path, cwd)}:${lines}${hidden}`;
};

/** --apply N (the N-th listed) or ID (the one listed with that id, whatever its number now). */
function applyFlag(value: string | undefined): number | { id: string } | undefined {
  if (value === undefined || /^\d+$/.test(value)) return positiveInt(value, '--apply');
  if (ACTION_ID.test(value)) return { id: value };
  throw usage(`--apply takes N or an action's id from the list (the letters after its number), not '${value}'`);
}

/** An action applied that changed no file and showed no page: nothing done, said as such (exit 1). */
function changedNothing(applied: NonNullable<ActionsResult['applied']>, r: ActionsResult, cwd: string): string {
  const at = `${displayPath(r.path, cwd)}:${r.span.line}`;
  return `code action ${applied.index} (${applied.id} '${applied.title}') at ${at} changes nothing; nothing ${applied.written ? 'written' : 'to apply'}`;
}

export const actions = defineCommand({
  summary: 'code actions at TARGET, FILE:LINE or FILE:START-END; --apply N or ID applies one',
  args: {
    ...targetArgs,
    target: {
      type: 'positional',
      required: false,
      description: 'FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or FILE:START-END',
      valueHint: 'TARGET',
    },
    kind: {
      type: 'string',
      description: 'Only these kinds (prefixes: quickfix, refactor, source)',
      valueHint: 'K,...',
    },
    apply: {
      type: 'string',
      description: 'Apply action N of the list, or by its id',
      valueHint: 'N|ID',
    },
    'apply-preferred': { type: 'boolean', description: "Apply the server's preferred action" },
    'dry-run': { type: 'boolean', description: 'With --apply, print the diff and write nothing' },
    verify: editArgs.verify,
    'verify-all': editArgs['verify-all'],
    all: { type: 'boolean', description: 'Also list the actions the server offers disabled, with why' },
    'allow-outside': editArgs['allow-outside'],
  },
  values: { kind: ACTION_KINDS },
  examples: [
    'lspq actions src/main.ts:1 --kind source',
    'lspq actions src/main.ts:1-4 --kind source.organizeImports --apply 1 --dry-run',
    'lspq actions src/main.ts:6:Circle --kind quickfix --json',
  ],
  process: 'daemon',
  mcp: { kind: 'edit', dryRun: '--dry-run', chosenBy: ['apply', 'apply-preferred'], required: ['target'] },
  writes: true,
  handlers: { actions: async () => (await import('./handler')).actions },
  run: async (args, { line, ask }) => {
    if (args.apply !== undefined && args['apply-preferred'])
      throw usage('give --apply N or --apply-preferred, not both');
    if (args['dry-run'] && args.apply === undefined && !args['apply-preferred'])
      throw usage('--dry-run goes with --apply N or --apply-preferred');
    const kinds = args.kind
      ?.split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const apply = args['apply-preferred'] ? ('preferred' as const) : applyFlag(args.apply);
    const query = {
      op: 'actions' as const,
      place: placeFrom(args, line.cwd),
      ...(kinds?.length ? { kinds } : {}),
      ...(apply !== undefined ? { apply } : {}),
      write: args['dry-run'] !== true,
      allowOutside: args['allow-outside'] === true,
      ...(args.all ? { all: true } : {}),
      ...verifyFlags(args),
    };
    const result = await ask(query, args);
    const out = present(
      result,
      args.json,
      {
        human: renderActions,
        json: actionsJson,
        found: (r) => (r.applied ? didSomething(r.applied) : r.actions.length > 0),
        nothing: (r, cwd) => (r.applied ? changedNothing(r.applied, r, cwd) : noActions(kinds)(r, cwd)),
      },
      line,
    );
    return withVerdict(out, result.applied?.verification);
  },
  shape: ActionsShape,
  capabilities: { actions: (c) => !!c.codeActionProvider },
});
