/** servers: every known server, found or not, its version and the roots it runs for; --for FILE, what each answers. */
import { resolvePath } from '../protocol/paths';
import { renderServers, renderServersFor, serversForJson, serversJson } from '../render/servers';
import { present, type Run } from './context';

export const servers: Run<'servers'> = async (args, { line, ask }) => {
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
};
