/** servers: every known server, found or not, its version and the roots it runs for in the daemon. */
import { renderServers, serversJson } from '../render/servers';
import { present, type Run } from './context';

export const servers: Run<'servers'> = async (args, { line, ask }) =>
  present(
    await ask({ op: 'servers' }, args),
    args.json,
    { human: renderServers, json: serversJson, found: () => true },
    line,
  );
