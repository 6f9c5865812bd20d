/** A fake server that never answers a definition; told $/cancelRequest, it records it in the cancel marker. */
import { appendFileSync } from 'node:fs';
import { cancelMarker, serve } from './base';

serve({
  definition: (_params, token) =>
    new Promise(() => {
      token.onCancellationRequested(() => {
        if (cancelMarker) appendFileSync(cancelMarker, 'cancelled\n');
      });
    }),
});
