import { defineCommand } from 'citty';
import type { CallsResult } from '../protocol/messages';
import { callsJson, renderCalls } from '../render/calls';
import { positiveInt, targetArgs, targetFrom } from './_shared';
import { callerOf, runQuery } from './_run';

export default defineCommand({
  meta: { name: 'calls', description: 'Callers of the function at TARGET (or with --out, what it calls)' },
  args: {
    ...targetArgs,
    out: { type: 'boolean', description: 'Outgoing calls (callees) instead of callers' },
    depth: { type: 'string', description: 'Follow calls this many levels (default 1)', valueHint: 'N' },
  },
  run: ({ args, data }) => {
    const caller = callerOf(data);
    return runQuery<CallsResult>(
      {
        op: 'calls',
        target: targetFrom(args, caller.cwd),
        direction: args.out ? 'outgoing' : 'incoming',
        depth: positiveInt(args.depth, '--depth') ?? 1,
      },
      args,
      { human: renderCalls, json: callsJson, found: (r) => r.calls.length > 0 },
      caller,
    );
  },
});
