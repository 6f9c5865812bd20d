/**
 * A fake server that holds memory as a real one does: HOLD_MB on start
 * (its environment's LSPQ_FAKE_HOLD_MB), and on a definition asked in a
 * file that says "grow", GROW_MB more (LSPQ_FAKE_GROW_MB), working on it
 * for 30 s before it answers: a busy server past the daemon's limit.
 */
import { readFileSync } from 'node:fs';
import { serve } from './base';

const held: Buffer[] = [];
/** Allocated and written, so it is resident memory, not a promise of it. */
const hold = (mb: number) => held.push(Buffer.alloc(mb * 1_048_576, 1));
hold(Number(process.env.LSPQ_FAKE_HOLD_MB ?? 0));

serve({
  definition: async (params, _token, answer) => {
    const path = decodeURIComponent(new URL(params.textDocument.uri).pathname);
    if (readFileSync(path, 'utf8').includes('grow')) {
      hold(Number(process.env.LSPQ_FAKE_GROW_MB ?? 0));
      await Bun.sleep(30_000);
    }
    return answer();
  },
});
