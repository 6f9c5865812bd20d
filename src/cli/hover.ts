import { defineCommand } from 'citty';
import type { HoverResult } from '../protocol/messages';
import { hoverJson, renderHover } from '../render/hover';
import { targetArgs, targetFrom } from './_shared';
import { callerOf, runQuery } from './_run';

export default defineCommand({
  meta: { name: 'hover', description: 'Signature, type and documentation of the symbol at TARGET' },
  args: targetArgs,
  run: ({ args, data }) => {
    const caller = callerOf(data);
    return runQuery<HoverResult>({ op: 'hover', target: targetFrom(args, caller.cwd) }, args, { human: renderHover, json: hoverJson, found: (r) => r.contents !== '' }, caller);
  },
});
