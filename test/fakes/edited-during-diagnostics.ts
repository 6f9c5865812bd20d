/** A fake server during whose first diagnostics another program edits b.fake: what lspq apply checked is no longer there. */
import { appendFileSync } from 'node:fs';
import { serve } from './base';

let edited = false;
serve({
  beforeDiagnostics: (path) => {
    if (edited) return;
    edited = true;
    appendFileSync(path.replace(/[^/]+$/, 'b.fake'), 'changed by another program\n');
  },
});
