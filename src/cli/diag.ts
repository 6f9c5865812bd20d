import { defineCommand } from 'citty';
import { LspqError } from '../errors';

export default defineCommand({
  meta: { name: 'diag', description: 'Diagnostics (not yet available)' },
  run: () => {
    throw new LspqError('unsupported', 'diag is not available in this build yet');
  },
});
