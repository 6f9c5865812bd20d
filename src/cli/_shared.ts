/**
 * Argument groups every query command shares, and the caller context built
 * from them. Pure: argv in, plain request fields out.
 */
import type { ArgsDef } from 'citty';
import { usage } from '../errors';
import type { CallerContext } from '../protocol/messages';
import { resolvePath } from '../protocol/paths';
import { parseTarget, type TargetSpec } from '../protocol/target';

export const DEFAULT_LIMIT = 200;

export const outputArgs = {
  json: { type: 'boolean', description: 'Print one JSON document (LSPQ_JSON=1 makes it the default)' },
} as const satisfies ArgsDef;

export const serverArgs = {
  ...outputArgs,
  root: { type: 'string', description: 'Workspace root (default: found by root markers above the file)', valueHint: 'DIR' },
  server: { type: 'string', description: "Use this server id ('lspq servers' lists them)", valueHint: 'ID' },
  timeout: { type: 'string', description: 'Give up after this many seconds (exit 3)', valueHint: 'SECONDS' },
  limit: { type: 'string', description: `Cut answers at N entries (default ${DEFAULT_LIMIT})`, valueHint: 'N' },
  daemon: { type: 'boolean', default: true, description: 'With --no-daemon, answer in this process and exit (slower; for one-off use in CI)' },
} as const satisfies ArgsDef;

export const targetArgs = {
  ...serverArgs,
  target: { type: 'positional', required: false, description: 'FILE:LINE:COL or FILE:LINE:NAME', valueHint: 'TARGET' },
  symbol: { type: 'string', description: 'Find the target by workspace symbol name (Outer.inner narrows)', valueHint: 'NAME' },
  nth: { type: 'string', description: 'With FILE:LINE:NAME, take the K-th occurrence on the line', valueHint: 'K' },
} as const satisfies ArgsDef;

type Loose = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function positiveInt(value: unknown, flag: string): number | undefined {
  const s = str(value);
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 1) throw usage(`${flag} takes a whole number of 1 or more, not '${s}'`);
  return n;
}

export function jsonWanted(args: Loose, env: Record<string, string | undefined>): boolean {
  if (args.json === true) return true;
  if (args.json === false) return false;
  return env.LSPQ_JSON === '1';
}

export function callerContext(args: Loose, cwd: string, env: Record<string, string>): CallerContext {
  const seconds = str(args.timeout);
  let timeoutMs: number | undefined;
  if (seconds !== undefined) {
    const n = Number(seconds);
    if (!Number.isFinite(n) || n <= 0) throw usage(`--timeout takes seconds greater than 0, not '${seconds}'`);
    timeoutMs = Math.round(n * 1000);
  }
  const root = str(args.root);
  if (root !== undefined && !isDirectory(resolvePath(cwd, root))) throw usage(`--root ${root} is not a directory; give the workspace root folder`);
  return {
    cwd,
    env,
    ...(root ? { root: resolvePath(cwd, root) } : {}),
    ...(str(args.server) ? { server: str(args.server) } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    limit: positiveInt(args.limit, '--limit') ?? DEFAULT_LIMIT,
  };
}

/** The target from `TARGET` or `--symbol NAME`: exactly one of them. */
export function targetFrom(args: Loose, cwd: string): TargetSpec {
  const raw = str(args.target);
  const symbol = str(args.symbol);
  if (raw && symbol) throw usage('give either a TARGET or --symbol NAME, not both');
  if (symbol) return { kind: 'symbol', name: symbol };
  if (!raw) throw usage('missing TARGET: write FILE:LINE:COL or FILE:LINE:NAME, or use --symbol NAME');
  return parseTarget(raw, cwd, positiveInt(args.nth, '--nth') ?? 1);
}

function isDirectory(path: string): boolean {
  try {
    return (require('node:fs') as typeof import('node:fs')).statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function useDaemon(args: Loose, env: Record<string, string | undefined>): boolean {
  return args.daemon !== false && env.LSPQ_NO_DAEMON !== '1';
}
