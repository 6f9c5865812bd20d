/**
 * A server as it may run for a root: as configured where the repository is
 * trusted; else in its untrusted mode (its registry entry's
 * `workspaceCode`), as VS Code's Restricted Mode runs no workspace
 * TypeScript, no build script and no configuration that is code. What it
 * cannot run is left out, said on stderr, and `lspq trust --explain`
 * lists it.
 */
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mergeSettings } from '../style-settings';
import { ancestors } from './install-places';
import type { Restriction, ServerSpec } from './spec';
import type { Trust } from './trust';

/** The nearest `node_modules/typescript/lib/tsserver.js` at or above `dir`. */
function tsserverAbove(dir: string): string | undefined {
  for (const d of ancestors(dir)) {
    const path = join(d, 'node_modules', 'typescript', 'lib', 'tsserver.js');
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** typescript-language-server's own search for a workspace's TypeScript: the nearest one at or above the root. */
export const workspaceTsserver = (root: string) => tsserverAbove(root);

/** The TypeScript installed beside the server's own binary (its bundled one), found from where the binary really is. */
export const userTsserver = (binary: string, realOf: (p: string) => string) => tsserverAbove(realOf(binary));

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The files among `names` at or above `dir` up to `top` (the first found of each name, nearest first). */
function presentAbove(dir: string, top: string, names: string[]): string[] {
  const found: string[] = [];
  for (const d of ancestors(dir)) {
    for (const name of names) if (isFile(join(d, name))) found.push(join(d, name));
    if (d === top || !d.startsWith(top)) break;
  }
  return found;
}

/** A spec with a restriction's settings, options and environment laid over its own. */
function restricted(spec: ServerSpec, r: Restriction): ServerSpec {
  const options = (spec.initializationOptions ?? {}) as Record<string, unknown>;
  return {
    ...spec,
    restricted: r,
    ...(r.settings ? { settings: mergeSettings(spec.settings ?? {}, r.settings) } : {}),
    ...(r.initializationOptions ? { initializationOptions: mergeSettings(options, r.initializationOptions) } : {}),
    ...(r.env ? { env: { ...spec.env, ...r.env } } : {}),
  };
}

/**
 * The spec to start for `root` with `binary`, or undefined when it may not
 * run there untrusted (then `trust` says what was left out).
 */
export function underTrust(
  spec: ServerSpec,
  root: string,
  binary: string,
  trust: Trust,
  realOf: (p: string) => string,
): ServerSpec | undefined {
  if (trust.trustsRoot(root)) return spec;
  const code = spec.workspaceCode;
  if (!code) {
    // A server the user configured is the user's own choice; a built-in nobody has audited runs only when trusted.
    if (spec.configuredIn) return spec;
    trust.leaveOut(`${spec.id} (not audited for untrusted repositories)`, root);
    return undefined;
  }
  if ('why' in code) return spec;
  if (code.untrusted === 'refuse') {
    trust.leaveOut(`${spec.id} (${code.runs})`, root);
    return undefined;
  }
  const r = code.untrusted;
  // Cargo reads its configuration from every folder above the crate: up to the repository's top.
  const risky = r.refuseWith ? presentAbove(root, trust.repositoryOf(root), r.refuseWith) : [];
  if (risky.length > 0) {
    const named = risky.map((p) => relative(root, p)).join(', ');
    trust.leaveOut(`${spec.id} (its ${named} can run programs)`, root);
    return undefined;
  }
  let spec2: ServerSpec = restricted(spec, r);
  if (r.userTypeScript) {
    const theirs = workspaceTsserver(root);
    if (theirs && trust.untrustedOwner(theirs, root)) {
      const ours = userTsserver(binary, realOf);
      if (!ours) {
        trust.leaveOut(`${spec.id} (it would run the repository's TypeScript, and no other is installed)`, root);
        return undefined;
      }
      const options = (spec2.initializationOptions ?? {}) as Record<string, unknown>;
      spec2 = {
        ...spec2,
        initializationOptions: mergeSettings(options, { tsserver: { path: ours } }),
      };
      trust.leaveOut(`the repository's TypeScript (${spec.id} runs ${ours})`, root);
    }
  }
  return spec2;
}
