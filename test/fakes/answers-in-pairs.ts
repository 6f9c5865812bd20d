/**
 * A fake server that answers a definition only once a second one is
 * waiting: two questions asked one after the other never get an answer,
 * two asked at once both do.
 */
import { serve } from './base';

const waiting: (() => void)[] = [];
serve({
  definition: (_params, token, answer) =>
    new Promise((resolve) => {
      const go = () => resolve(answer());
      waiting.push(go);
      // A cancelled question no longer waits for its pair.
      token.onCancellationRequested(() => {
        const at = waiting.indexOf(go);
        if (at >= 0) waiting.splice(at, 1);
      });
      if (waiting.length >= 2) for (const next of waiting.splice(0)) next();
    }),
});
