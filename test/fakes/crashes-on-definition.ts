/** A fake server that writes "boom" to stderr and exits 3 when asked a definition. */
import { serve } from './base';

serve({
  definition: () => {
    process.stderr.write('boom: the fake server crashed on purpose\n');
    process.exit(3);
  },
});
