/** A fake server during whose rename another program edits the file. */
import { appendFileSync } from 'node:fs';
import { serve } from './base';

serve({ beforeRename: (path) => appendFileSync(path, 'changed by another program\n') });
