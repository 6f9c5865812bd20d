/** servers: every known server, whether it is found, its version, and the roots it runs for. */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { loadServers } from '../../lsp/servers/config';
import { locateBinary } from '../../lsp/servers/locate';
import type { PoolCaches } from '../../lsp/manager';
import type { CallerContext, ServerInfo, ServersResult } from '../../queries';
import type { HandlerContext } from './context';

const VERSION_TIMEOUT_MS = 5_000;

/** A binary's own version line, remembered per binary and modification time. */
function versionOf(
  binary: string,
  args: string[],
  env: Record<string, string>,
  caches: PoolCaches,
): string | undefined {
  let mtime = 0;
  try {
    mtime = statSync(binary).mtimeMs;
  } catch {}
  const key = `${binary}\0${mtime}`;
  const known = caches.versions.get(key);
  if (known) return known.line;
  const run = spawnSync(binary, args, {
    env,
    timeout: VERSION_TIMEOUT_MS,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A failing --version prints a stack trace, not a version (pyright-langserver does).
  const text = run.status === 0 ? `${run.stdout ?? ''}\n${run.stderr ?? ''}` : '';
  const line = text
    .split('\n')
    .find((l) => /\d+\.\d+/.test(l))
    ?.trim();
  return caches.versions.set(key, line === undefined ? {} : { line }).line;
}

export async function servers(req: CallerContext, ctx: HandlerContext): Promise<ServersResult> {
  const specs = loadServers(req.root ?? req.cwd, req.env);
  const held = ctx.pool.list();
  const result: ServerInfo[] = specs.map((spec) => {
    const binary = locateBinary(spec, req.root ?? req.cwd, req.env);
    const roots = held.filter((s) => s.client.spec.id === spec.id).map((s) => s.client.root);
    return {
      id: spec.id,
      name: spec.name,
      languages: [...new Set(Object.values(spec.languages))],
      found: binary !== undefined,
      ...(binary ? { command: binary } : {}),
      ...(binary ? { version: versionOf(binary, spec.versionArgs, req.env, ctx.pool.caches) } : {}),
      install: spec.install,
      roots: [...new Set(roots)],
    };
  });
  return { servers: result };
}
