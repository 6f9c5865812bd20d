import { defineCommand } from 'citty';
import { LspqError } from '../errors';

export default defineCommand({
  meta: { name: 'git', description: 'git under a safety policy (not yet available)' },
  run: () => {
    throw new LspqError('unsupported', 'git is not available in this build yet');
  },
});
