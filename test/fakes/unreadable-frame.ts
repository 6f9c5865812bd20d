/** A fake server whose first answer to a definition follows a frame whose header names no length. */
import { serve } from './base';

let sent = false;
serve({
  definition: (_params, _token, answer) => {
    // A reader that takes this frame on loses what follows.
    if (!sent) process.stdout.write('Content-Lenght: 2\r\n\r\n{}');
    sent = true;
    return answer();
  },
});
