/**
 * A fake server that never answers a definition; told $/cancelRequest, it
 * records it in the cancel marker. It says it was asked in the marker's
 * name with `.asked` (a test waits for that before it interrupts).
 */
import { appendFileSync } from 'node:fs';
import { cancelMarker, serve } from './base';

serve({
  definition: (_params, token) =>
    new Promise(() => {
      if (cancelMarker) appendFileSync(`${cancelMarker}.asked`, 'asked\n');
      token.onCancellationRequested(() => {
        if (cancelMarker) appendFileSync(cancelMarker, 'cancelled\n');
      });
    }),
});
