/**
 * A fake server that refuses a rename, its code action's command and a
 * move, each with a reason of three lines (the refusal, where, what to do)
 * and then the stack trace of the error it threw, as a server's failure
 * can carry one (tsserver's does).
 */
import { serve } from './base';

serve({
  refusal: [
    'renaming "hello" would break b.fake',
    'b.fake:1:1:\tit is imported there as hello',
    "(rename b.fake's import with it)",
    'Error: renaming "hello" would break b.fake',
    '    at refuse (refuses-with-a-stack.ts:10:5)',
    '    at rename (base.ts:99:7)',
  ].join('\n'),
});
