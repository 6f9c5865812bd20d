import { defineCommand } from 'citty';
import { LspqError } from '../errors';

export default defineCommand({
  meta: { name: 'daemon', description: 'status | stop | restart | logs' },
  run: () => {
    throw new LspqError('unsupported', 'daemon is not available in this build yet');
  },
});
