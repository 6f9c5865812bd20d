/** servers: one block per server, found ones first. */
import type { ServersResult } from '../queries';
import type { RenderOptions } from './style';
import type { ServersShape } from './json-shapes';
import type { Rendered } from './types';
import type * as z from 'zod/mini';

export const serversJson = (r: ServersResult): z.infer<typeof ServersShape> => r;

export function renderServers(r: ServersResult, o: RenderOptions): Rendered {
  const c = o.colors;
  const lines = r.servers.map((s) => {
    const head = `${s.found ? c.green('found  ') : c.yellow('missing')} ${c.bold(s.id.padEnd(28))} ${s.languages.join(', ')}`;
    const detail = s.found ? `${s.version ?? 'version unknown'} (${s.command})` : `install: ${s.install}`;
    const roots = s.roots.length ? `\n          running for: ${s.roots.join(', ')}` : '';
    return `${head}\n          ${c.dim(detail)}${roots}`;
  });
  return { stdout: `${lines.join('\n')}\n` };
}
