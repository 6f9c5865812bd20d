/**
 * What keys a server in the pool (manager.ts): what makes its answers
 * differ, and nothing else.
 */
import { BoundedCache } from '../common/bounded-cache';
import { onPath } from './servers/locate';
import type { ServerSpec } from './servers/registry';

/**
 * What makes a server's answers differ, and nothing else: its binary, the
 * programs it runs from PATH (where PATH finds them, not the PATH string:
 * a git hook's PATH starts with git's exec folder), the environment
 * variables it reads, and what a .lsp.json starts it with.
 */
export function poolKey(
  spec: ServerSpec,
  root: string,
  binary: string,
  env: Record<string, string>,
  configured: (spec: ServerSpec) => string,
): string {
  const relevant = spec.envKeys
    .map((k) =>
      k === 'PATH' ? `PATH→${(spec.pathTools ?? []).map((t) => toolOnPath(t, env) ?? '-')}` : `${k}=${env[k] ?? ''}`,
    )
    .join('\0');
  return `${spec.id}\0${root}\0${binary}\0${relevant}\0${configured(spec)}\0${trustModeOf(spec)}`;
}

/** How a server runs for its root: as the user's own code, in its untrusted mode, or as configured in a box. */
export const trustModeOf = (spec: ServerSpec): 'trusted' | 'restricted' | 'contained' =>
  spec.contained ? 'contained' : spec.restricted ? 'restricted' : 'trusted';

/**
 * What a .lsp.json sets is part of the server it starts: edited, the next
 * question gets a server that has it (a spec is never changed: an edited
 * configuration makes new ones).
 */
export const configuredHash = (spec: ServerSpec) =>
  String(Bun.hash(JSON.stringify([spec.command, spec.args, spec.env, spec.settings, spec.initializationOptions])));

/** Where PATH finds a tool, by tool and PATH: looked up along PATH (a file test per folder) at most every few seconds. */
const toolsOnPath = new BoundedCache<string, { path: string | undefined }>(64, 3_000);
function toolOnPath(tool: string, env: Record<string, string>): string | undefined {
  const key = `${tool}\0${env.PATH ?? ''}`;
  return (toolsOnPath.get(key) ?? toolsOnPath.set(key, { path: onPath(tool, env) })).path;
}
