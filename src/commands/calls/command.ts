/** calls: the callers (or --out callees) of a function, or --to the shortest call chains to another. */
import { unsearchedNote } from '../locations/run';
import { displayPath } from '../../common/paths';
import * as z from 'zod/mini';
import { usage } from '../../common/errors';
import { parseTargetOrName, type TargetSpec } from '../../common/target';
import { contextArgs, targetArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { isFile, positiveInt, targetFrom } from '../options';
import { callPathJson, callsJson, noChainNote, renderCallPath, renderCalls } from './render';
import { CallPathShape, CallsShape } from './shape';

/** The target of --to: FILE:LINE:COL, FILE:LINE:NAME or FILE:LINE, else a symbol name as --symbol takes it. */
function toTarget(value: string, cwd: string): TargetSpec {
  return parseTargetOrName(value, cwd, isFile);
}

/** A call chain search goes deeper than a listing by default: six calls reach most of a program. */
const CHAIN_DEPTH = 6;

export const calls = defineCommand({
  summary: 'callers (or --out callees) of the function at TARGET',
  args: {
    ...targetArgs,
    ...contextArgs,
    out: { type: 'boolean', description: 'Outgoing calls (callees) instead of callers' },
    depth: {
      type: 'string',
      description: 'Follow calls this many levels (default 1; with --to, 6)',
      valueHint: 'N',
    },
    to: {
      type: 'string',
      description: 'The shortest call chains from TARGET to this target or symbol name',
      valueHint: 'TARGET|NAME',
    },
  },
  examples: [
    'lspq calls geometry.c:3:area_of --depth 3',
    'lspq calls geometry.go:17:TotalArea --out',
    'lspq calls main.go:5:main --to Shape.Area',
  ],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: {
    calls: async () => (await import('./handler')).calls,
    callPath: async () => (await import('./call-paths')).callPath,
  },
  run: async (args, { line, ask }) => {
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
        {
          human: renderCallPath,
          json: callPathJson,
          found: (r) => r.chains.length > 0,
          nothing: noChainNote,
        },
        line,
      );
    }
    const query = {
      op: 'calls' as const,
      target: targetFrom(args, line.cwd),
      direction: args.out ? ('outgoing' as const) : ('incoming' as const),
      depth: positiveInt(args.depth, '--depth') ?? 1,
    };
    const result = await ask(query, args);
    const out = present(
      result,
      args.json,
      {
        human: renderCalls,
        json: callsJson,
        found: (r) => r.calls.length > 0,
        nothing: (r, cwd) =>
          `no ${r.direction === 'incoming' ? 'callers' : 'callees'} of ${r.item.name} (${displayPath(r.item.path, cwd)}:${r.item.line}:${r.item.column})`,
      },
      line,
    );
    // Files no build configuration asked compiles may hold more callers: not the whole answer.
    if (!result.unsearched?.length) return out;
    return {
      ...out,
      stderr: unsearchedNote(result.unsearched.map((p) => displayPath(p, line.cwd)).join(', ')),
      exit: 3 as const,
    };
  },
  shape: z.union([CallsShape, CallPathShape]),
  capabilities: { calls: (c) => !!c.callHierarchyProvider },
});
