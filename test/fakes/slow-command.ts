/** A fake server whose code action's command waits 300 ms before sending its edit back (two at once overlap). */
import { fixByCommand, serve } from './base';

serve({
  command: async (uri, connection) => {
    await new Promise((r) => setTimeout(r, 300));
    await fixByCommand(uri, connection);
  },
});
