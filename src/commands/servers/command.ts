/** servers: every known server, found or not, its version and the roots it runs for; --for FILE, what each answers. */
import * as z from 'zod/mini';
import { resolvePath } from '../../common/paths';
import { serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { renderServers, renderServersFor, serversForJson, serversJson } from './render';
import { ServersForShape, ServersShape } from './shape';

export const servers = defineCommand({
  summary: 'known language servers: found or not, version, running roots; --for FILE what each can answer',
  args: {
    ...serverArgs,
    for: {
      type: 'string',
      description: 'The servers for FILE, in the order asked, and the commands each can answer (starts none)',
      valueHint: 'FILE',
    },
  },
  examples: ['lspq servers', 'lspq servers --json', 'lspq servers --for main.go'],
  process: 'look',
  handlers: {
    servers: async () => (await import('./handler')).servers,
    serversFor: async () => (await import('./handler')).serversFor,
  },
  run: async (args, { line, ask }) => {
    if (args.for !== undefined) {
      const result = await ask({ op: 'serversFor', file: resolvePath(line.cwd, args.for) }, args);
      return present(
        result,
        args.json,
        { human: renderServersFor, json: serversForJson, found: (r) => r.servers.length > 0 },
        line,
      );
    }
    return present(
      await ask({ op: 'servers' }, args),
      args.json,
      { human: renderServers, json: serversJson, found: () => true },
      line,
    );
  },
  shape: z.union([ServersShape, ServersForShape]),
});
