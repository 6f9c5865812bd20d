import { defineCommand } from 'citty';
import type { ServersResult } from '../protocol/messages';
import { renderServers, serversJson } from '../render/servers';
import { serverArgs } from './_shared';
import { localCaller, runQuery } from './_run';

export default defineCommand({
  meta: { name: 'servers', description: 'Each known language server: found or not (with its install hint), version, running roots' },
  args: serverArgs,
  run: ({ args }) => runQuery<ServersResult>({ op: 'servers' }, args, { human: renderServers, json: serversJson, found: () => true }, localCaller()),
});
