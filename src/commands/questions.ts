/** The questions about code: each turns its flags into one query and presents the answer. */
import { usage } from '../errors';
import type { LocationOp, LocationsResult } from '../queries';
import { resolvePath } from '../protocol/paths';
import { callPathJson, callsJson, renderCallPath, renderCalls } from '../render/calls';
import { hoverJson, renderHover } from '../render/hover';
import { locationsJson, renderLocations } from '../render/locations';
import { renderSymbols, renderWorkspaceSymbols, symbolsJson, workspaceSymbolsJson } from '../render/symbols';
import { present, type Presenter, type Run } from './context';
import { parseKinds, positiveInt, targetFrom, type TargetFlags } from './options';
import { parseTarget, type TargetSpec } from '../protocol/target';

/** A declaration longer than this is cut unless --max-lines says otherwise. */
const DEFAULT_BODY_LINES = 200;

const locationsPresenter: Presenter<LocationsResult> = {
  human: renderLocations,
  json: locationsJson,
  found: (r) => r.total > 0,
};

/** def, typedef, impls and refs differ only in the request they make. */
function locations(op: LocationOp) {
  return async (
    args: TargetFlags & { 'include-declaration'?: boolean; body?: boolean; 'max-lines'?: string },
    { line, ask }: Parameters<Run<LocationOp>>[1],
  ) => {
    const maxLines = positiveInt(args['max-lines'], '--max-lines');
    if (maxLines !== undefined && !args.body) throw usage('--max-lines cuts a --body; add --body');
    const query = {
      op,
      target: targetFrom(args, line.cwd),
      ...(args['include-declaration'] ? { includeDeclaration: true } : {}),
      ...(args.body ? { body: { maxLines: maxLines ?? DEFAULT_BODY_LINES } } : {}),
    };
    return present(await ask<LocationOp>(query, args), args.json, locationsPresenter, line);
  };
}

export const def: Run<'def'> = locations('def');
export const typedef: Run<'typedef'> = locations('typedef');
export const impls: Run<'impls'> = locations('impls');
export const refs: Run<'refs'> = locations('refs');

export const hover: Run<'hover'> = async (args, { line, ask }) => {
  const result = await ask({ op: 'hover', target: targetFrom(args, line.cwd) }, args);
  return present(result, args.json, { human: renderHover, json: hoverJson, found: (r) => r.contents !== '' }, line);
};

export const symbols: Run<'symbols'> = async (args, { line, ask }) => {
  const kinds = parseKinds(args.kind);
  const input = args.input;
  if (args.workspace) {
    if (!input) throw usage('symbols -w needs a QUERY: lspq symbols -w NAME');
    const result = await ask({ op: 'wsymbols', query: input, ...(kinds ? { kinds } : {}) }, args);
    return present(
      result,
      args.json,
      { human: renderWorkspaceSymbols, json: workspaceSymbolsJson, found: (r) => r.total > 0 },
      line,
    );
  }
  if (!input) throw usage('missing FILE: lspq symbols FILE, or lspq symbols -w QUERY for the workspace');
  const result = await ask({ op: 'symbols', path: resolvePath(line.cwd, input), ...(kinds ? { kinds } : {}) }, args);
  return present(result, args.json, { human: renderSymbols, json: symbolsJson, found: (r) => r.total > 0 }, line);
};

/** The target of --to: FILE:LINE:COL or FILE:LINE:NAME, else a symbol name as --symbol takes it. */
function toTarget(value: string, cwd: string): TargetSpec {
  return /:\d+(:|$)/.test(value) ? parseTarget(value, cwd) : { kind: 'symbol', name: value };
}

/** A call chain search goes deeper than a listing by default: six calls reach most of a program. */
const CHAIN_DEPTH = 6;

export const calls: Run<'calls'> = async (args, { line, ask }) => {
  if (args.to !== undefined) {
    if (args.out) throw usage('--to follows outgoing calls already; drop --out');
    const query = {
      op: 'callPath' as const,
      from: targetFrom(args, line.cwd),
      to: toTarget(args.to, line.cwd),
      depth: positiveInt(args.depth, '--depth') ?? CHAIN_DEPTH,
    };
    return present(
      await ask(query, args),
      args.json,
      { human: renderCallPath, json: callPathJson, found: (r) => r.chains.length > 0 },
      line,
    );
  }
  const query = {
    op: 'calls' as const,
    target: targetFrom(args, line.cwd),
    direction: args.out ? ('outgoing' as const) : ('incoming' as const),
    depth: positiveInt(args.depth, '--depth') ?? 1,
  };
  return present(
    await ask(query, args),
    args.json,
    { human: renderCalls, json: callsJson, found: (r) => r.calls.length > 0 },
    line,
  );
};
