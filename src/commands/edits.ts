/**
 * The commands that change files: fmt, rename, actions. Each turns its
 * flags into one query; the engine plans the server's edit and writes it
 * all or nothing (or, with --dry-run, the default of fmt, only shows it).
 */
import { usage } from '../errors';
import { resolvePath } from '../protocol/paths';
import { parseLineTarget, parseTarget, type LineSpec, type TargetSpec } from '../protocol/target';
import {
  actionsJson,
  fmtJson,
  mvJson,
  renameJson,
  renderActions,
  renderFmt,
  renderMv,
  renderRename,
} from '../render/edits';
import { present, type Run } from './context';
import { positiveInt, targetFrom } from './options';

/** --verify and --verify-all (which implies it); a dry run writes nothing to verify. */
function verifyFlags(args: { verify?: boolean; 'verify-all'?: boolean; 'dry-run'?: boolean }) {
  const verifyAll = args['verify-all'] === true;
  const verify = args.verify === true || verifyAll;
  if (verify && args['dry-run']) throw usage('--verify checks what was written; drop --dry-run (or --verify)');
  return verify ? { verify, ...(verifyAll ? { verifyAll } : {}) } : {};
}

/** `START-END` of --range, 1-based and inclusive. */
function lineRange(value: string): { start: number; end: number } {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value);
  const start = Number(m?.[1]);
  const end = Number(m?.[2] ?? m?.[1]);
  if (!m || start < 1 || end < start)
    throw usage(
      `--range takes START-END, lines counted from 1 with START <= END (for example --range 10-20), not '${value}'`,
    );
  return { start, end };
}

export const fmt: Run<'fmt'> = async (args, { line, ask }) => {
  if (args._.length === 0) throw usage('missing FILE: lspq fmt FILE... (--write rewrites them, --check only tells)');
  if (args.write && args.check) throw usage('give --write or --check, not both');
  if (args.range !== undefined && args._.length > 1) throw usage('--range formats lines of one file; name one FILE');
  const mode = args.check ? 'check' : args.write ? 'write' : 'diff';
  const files = args._.map((f) => resolvePath(line.cwd, f));
  const result = await ask(
    {
      op: 'fmt',
      files,
      write: mode === 'write',
      ...(args.range !== undefined ? { lines: lineRange(args.range) } : {}),
    },
    args,
  );
  const out = present(
    result,
    args.json,
    { human: (r, o) => renderFmt(r, o, mode), json: fmtJson, found: () => true },
    line,
  );
  // --check answers with the exit code: 1 when a file would change, as gofmt -l users expect of a check.
  return mode === 'check' && result.files.some((f) => f.changed) ? { ...out, exit: 1 } : out;
};

export const rename: Run<'rename'> = async (args, { line, ask }) => {
  // With --symbol the one positional word is the new name.
  const newName = args.symbol ? (args['new-name'] ?? args.target) : args['new-name'];
  const targetWord = args.symbol ? undefined : args.target;
  if (!newName) throw usage('missing NEWNAME: lspq rename TARGET NEWNAME (or --symbol NAME NEWNAME)');
  const target = targetFrom({ ...args, target: targetWord }, line.cwd);
  const query = {
    op: 'rename' as const,
    target,
    newName,
    write: args['dry-run'] !== true,
    allowOutside: args['allow-outside'] === true,
    ...verifyFlags(args),
  };
  const result = await ask(query, args);
  const out = present(
    result,
    args.json,
    { human: renderRename, json: renameJson, found: (r) => r.files.length > 0 },
    line,
  );
  return result.verification?.reverted ? { ...out, exit: 1 } : out;
};

/** A position (FILE:LINE:COL, FILE:LINE:NAME, --symbol) or lines (FILE:LINE, FILE:START-END). */
function placeFrom(args: Parameters<Run<'actions'>>[0], cwd: string): TargetSpec | LineSpec {
  if (args.symbol || !args.target) return targetFrom(args, cwd);
  // FILE:LINE:COL and FILE:LINE:NAME name a position; FILE:LINE and FILE:START-END lines.
  if (/:\d+:[^:\s]+$/.test(args.target)) return parseTarget(args.target, cwd, positiveInt(args.nth, '--nth') ?? 1);
  return parseLineTarget(args.target, cwd);
}

export const actions: Run<'actions'> = async (args, { line, ask }) => {
  if (args.apply !== undefined && args['apply-preferred']) throw usage('give --apply N or --apply-preferred, not both');
  if (args['dry-run'] && args.apply === undefined && !args['apply-preferred'])
    throw usage('--dry-run goes with --apply N or --apply-preferred');
  const kinds = args.kind
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const apply = args['apply-preferred'] ? ('preferred' as const) : positiveInt(args.apply, '--apply');
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
    { human: renderActions, json: actionsJson, found: (r) => r.actions.length > 0 },
    line,
  );
  return result.applied?.verification?.reverted ? { ...out, exit: 1 } : out;
};

export const mv: Run<'mv'> = async (args, { line, ask }) => {
  if (!args.old || !args.new) throw usage('missing OLD or NEW: lspq mv OLD NEW (a file or a folder)');
  const query = {
    op: 'mv' as const,
    from: resolvePath(line.cwd, args.old),
    to: resolvePath(line.cwd, args.new),
    update: args['no-update'] !== true,
    write: args['dry-run'] !== true,
    allowOutside: args['allow-outside'] === true,
    ...verifyFlags(args),
  };
  const result = await ask(query, args);
  const out = present(result, args.json, { human: renderMv, json: mvJson, found: () => true }, line);
  return result.verification?.reverted ? { ...out, exit: 1 } : out;
};
