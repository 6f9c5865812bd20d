/**
 * The flags commands share, turned into the plain fields a question
 * carries: the caller context, the target, symbol kinds, severities. Pure:
 * words in, values out, a one-line usage error for anything else.
 */
import { usage } from '../common/errors';
import type { CallerContext } from '../answers/caller';
import { SEVERITIES, type Severity } from '../answers/diagnostics';
import { resolvePath } from '../common/paths';
import { SYMBOL_KINDS } from '../common/symbol-kinds';
import { parseTarget, type TargetSpec } from '../common/target';
import { DEFAULT_LIMIT } from './common-args';

/** The flags of every command that asks a server (the table's server flags). */
export interface ServerFlags {
  json?: boolean;
  root?: string;
  server?: string;
  timeout?: string;
  limit?: string;
  index?: string;
  'index-only'?: boolean;
  'no-index'?: boolean;
}

/** --index FILE, --index-only, --no-index. */
function indexFrom(args: ServerFlags, cwd: string): Pick<CallerContext, 'index'> {
  const only = args['index-only'] === true;
  const off = args['no-index'] === true;
  if (only && off) throw usage('give --index-only or --no-index, not both');
  if (off && args.index !== undefined) throw usage('give --index FILE or --no-index, not both');
  if (!only && !off && args.index === undefined) return {};
  return {
    index: {
      mode: only ? 'only' : off ? 'off' : 'auto',
      ...(args.index ? { file: resolvePath(cwd, args.index) } : {}),
    },
  };
}

export interface ContextFlags {
  context?: string;
  before?: string;
  after?: string;
}

const withContext = (args: ServerFlags & ContextFlags) => {
  const context = contextFrom(args);
  return context ? { context } : {};
};

export interface TargetFlags extends ServerFlags {
  target?: string;
  symbol?: string;
  nth?: string;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw usage(`${flag} takes a whole number of 1 or more, not '${value}'`);
  return n;
}

/** --limit N: N entries, 0 every one (what a cut answer's last line offers). */
export function limitFlag(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0)
    throw usage(`--limit takes a whole number (0 for no limit), not '${value}'`);
  return n === 0 ? Number.MAX_SAFE_INTEGER : n;
}

export function jsonWanted(json: boolean | undefined, env: Record<string, string | undefined>): boolean {
  return json ?? env.LSPQ_JSON === '1';
}

/** The context flags' value: a whole number from 0 to 50. */
function lineCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_CONTEXT) {
    throw usage(`${flag} takes a number of lines from 0 to ${MAX_CONTEXT}, not '${value}'`);
  }
  return n;
}

export const MAX_CONTEXT = 50;

/** -B, -A and -C as lines before and after; -B and -A win over -C for their side, as in grep. */
export function contextFrom(args: ContextFlags): { before: number; after: number } | undefined {
  const around = lineCount(args.context, '-C');
  const before = lineCount(args.before, '-B') ?? around;
  const after = lineCount(args.after, '-A') ?? around;
  if (before === undefined && after === undefined) return undefined;
  return { before: before ?? 0, after: after ?? 0 };
}

export function callerContext(args: ServerFlags, cwd: string, env: Record<string, string>): CallerContext {
  let timeoutMs: number | undefined;
  if (args.timeout !== undefined) {
    const n = Number(args.timeout);
    if (!Number.isFinite(n) || n <= 0) throw usage(`--timeout takes seconds greater than 0, not '${args.timeout}'`);
    timeoutMs = Math.round(n * 1000);
  }
  const root = args.root;
  if (root !== undefined && !isDirectory(resolvePath(cwd, root)))
    throw usage(`--root ${root} is not a directory; give the workspace root folder`);
  return {
    cwd,
    env,
    ...(root ? { root: resolvePath(cwd, root) } : {}),
    ...(args.server ? { server: args.server } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    limit: limitFlag(args.limit),
    ...withContext(args),
    ...indexFrom(args, cwd),
  };
}

/** The target from `TARGET` or `--symbol NAME`: exactly one of them. */
export function targetFrom(args: TargetFlags, cwd: string): TargetSpec {
  if (args.target && args.symbol) throw usage('give either a TARGET or --symbol NAME, not both');
  if (args.symbol) return { kind: 'symbol', name: args.symbol };
  if (!args.target)
    throw usage('missing TARGET: write FILE:LINE:COL, FILE:LINE:NAME or FILE:LINE, or use --symbol NAME');
  return parseTarget(args.target, cwd, positiveInt(args.nth, '--nth') ?? 1, isFile);
}

/** `--kind class,function` → validated lower-case LSP symbol kind names. */
export function parseKinds(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const kinds = value
    .split(',')
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  const bad = kinds.filter((k) => !SYMBOL_KINDS.includes(k));
  if (bad.length)
    throw usage(`unknown symbol kind ${bad.map((b) => `'${b}'`).join(', ')}; kinds are: ${SYMBOL_KINDS.join(', ')}`);
  return kinds;
}

const isSeverity = (value: string): value is Severity => (SEVERITIES as readonly string[]).includes(value);

export function severityFlag(value: string | undefined, flag: string, also: string[] = []): Severity | undefined {
  if (value === undefined || isSeverity(value)) return value;
  throw usage(`${flag} takes one of ${[...SEVERITIES, ...also].join(', ')}, not '${value}'`);
}

/** Whether a target's FILE is there: `main.go:x:1` names main.go's bad line, not a file `main.go:x`. */
export function isFile(path: string): boolean {
  try {
    return (require('node:fs') as typeof import('node:fs')).statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return (require('node:fs') as typeof import('node:fs')).statSync(path).isDirectory();
  } catch {
    return false;
  }
}
