/**
 * A server as it may run for a root: as configured where trust covers the
 * root; else in its untrusted mode (its registry entry's `workspaceCode`),
 * as VS Code's Restricted Mode runs no workspace TypeScript, no build
 * script and no configuration that is code. What it reads that could name
 * a program is set by lspq (the projects it loads, its sysroot, its
 * TypeScript). What it cannot run is left out, said on stderr, and `lspq
 * trust --explain` lists it, from this same decision.
 */
import { existsSync, lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isWithin } from '../../common/paths';
import type { Trust } from '../../trust/decision';
import { mergeSettings } from '../style-settings';
import { ancestors, toolFolders } from './install-places';
import { userPathDirs, withUserPath } from './locate';
import type { Overlay, ServerSpec } from './spec';
import { isRecord } from '../../common/records';

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
    return lstatSync(path).isFile() || lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/** A spec with an overlay's settings, options and environment laid over its own. */
export function overlaid(spec: ServerSpec, o: Overlay): ServerSpec {
  const options = spec.initializationOptions;
  const own = isRecord(options) ? options : {};
  return {
    ...spec,
    ...(o.settings ? { settings: mergeSettings(spec.settings ?? {}, o.settings) } : {}),
    ...(o.initializationOptions ? { initializationOptions: mergeSettings(own, o.initializationOptions) } : {}),
    ...(o.env ? { env: { ...spec.env, ...o.env } } : {}),
  };
}

/** What the user's toolchain says its sysroot is, by the environment it was asked in. */
const sysroots = new Map<string, string | undefined>();

/**
 * The sysroot of the user's Rust toolchain: `rustc --print sysroot` from
 * the user's tool folders or PATH, run in `/`, where no repository's
 * rust-toolchain file names another.
 */
export function userSysroot(env: Record<string, string | undefined>): string | undefined {
  const key = JSON.stringify([env.PATH, env.RUSTUP_HOME, env.RUSTUP_TOOLCHAIN, env.CARGO_HOME, env.LSPQ_TOOL_DIRS]);
  if (sysroots.has(key)) return sysroots.get(key);
  let sysroot: string | undefined;
  const rustc = [...toolFolders(env), ...userPathDirs(env)].map((d) => join(d, 'rustc')).find(isFile);
  if (rustc) {
    try {
      const r = Bun.spawnSync([rustc, '--print', 'sysroot'], {
        cwd: '/',
        env: withUserPath(Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => !!e[1]))),
        stdin: 'ignore',
        stdout: 'pipe',
        stderr: 'ignore',
        timeout: 10_000,
      });
      const out = r.exitCode === 0 ? r.stdout.toString().trim() : '';
      if (out.startsWith('/') && existsSync(join(out, 'bin', 'rustc'))) sysroot = out;
    } catch {}
  }
  sysroots.set(key, sysroot);
  return sysroot;
}

/** The files among `names` at or above `dir` (nearest first), but for those in the user's own `home` folder. */
function presentAbove(dir: string, names: string[], home: string | undefined): string[] {
  const found: string[] = [];
  for (const d of ancestors(dir)) {
    for (const name of names) {
      const path = join(d, name);
      if (isFile(path) && !(home && isWithin(path, home))) found.push(path);
    }
  }
  return found;
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
  env: Record<string, string | undefined>,
  realOf: (p: string) => string,
): ServerSpec | undefined {
  if (trust.trustsRoot(root)) return spec;
  const code = spec.workspaceCode;
  if (!code) {
    // A server the user configured is the user's own choice; a built-in nobody has audited runs only when trusted.
    if (spec.configuredIn) return spec;
    trust.leaveOut(`${spec.id} (not audited for untrusted workspaces)`, root, { file: root });
    return undefined;
  }
  if ('why' in code) return spec;
  if (code.untrusted === 'refuse') {
    // Said as it is here: the configuration files that are code, those the root has.
    const present = (code.configs ?? []).map((name) => join(root, name)).filter(isFile);
    const named = present.length ? `, and its ${present.map((p) => relative(root, p)).join(', ')}` : '';
    trust.leaveOut(`${spec.id} (${code.runs}${named})`, root, { file: present[0] ?? root });
    return undefined;
  }
  const r = code.untrusted;
  const home = r.refuseWith?.home;
  const risky = r.refuseWith
    ? presentAbove(root, r.refuseWith.files, home ? (env[home.env] ?? join(env.HOME ?? '/', home.fallback)) : undefined)
    : [];
  const [firstRisky] = risky;
  if (firstRisky !== undefined) {
    const named = risky.map((p) => relative(root, p)).join(', ');
    trust.leaveOut(`${spec.id} (its ${named} can run programs)`, root, { file: firstRisky });
    return undefined;
  }
  let restricted: ServerSpec = { ...overlaid(spec, r), restricted: r };
  if (r.linkedProjects) {
    const projects = r.linkedProjects.files.map((f) => join(root, f)).filter(isFile);
    if (projects.length === 0) {
      trust.leaveOut(`${spec.id} (no ${r.linkedProjects.files.join(' or ')} at ${root} for lspq to name)`, root, {
        file: root,
      });
      return undefined;
    }
    restricted = overlaid(restricted, r.linkedProjects.overlay(projects));
  }
  if (r.userSysroot) {
    const sysroot = userSysroot(env);
    if (!sysroot) {
      trust.leaveOut(`${spec.id} (no toolchain of the user's reports a sysroot: rustc --print sysroot)`, root, {
        file: root,
      });
      return undefined;
    }
    restricted = overlaid(restricted, r.userSysroot.overlay(sysroot));
  }
  if (r.userTypeScript) {
    const theirs = workspaceTsserver(root);
    if (theirs && !trust.covers(theirs)) {
      const ours = userTsserver(binary, realOf);
      if (!ours) {
        trust.leaveOut(`${spec.id} (it would run the workspace's TypeScript, and no other is installed)`, root, {
          file: theirs,
        });
        return undefined;
      }
      restricted = overlaid(restricted, { initializationOptions: { tsserver: { path: ours } } });
      trust.leaveOut(`its own TypeScript, which ${spec.id} would run with the plugins its tsconfig names`, root, {
        file: theirs,
      });
    }
  } else {
    // Said only by `trust --explain`: the restriction itself costs a question nothing it would notice.
    // Named by the files at its root that make it the project (gopls's go.mod, whose toolchain line go would run).
    const markers = spec.rootMarkers
      .flat()
      .map((name) => join(root, name))
      .filter(isFile);
    for (const file of markers.length ? markers : [root])
      trust.leaveOut(`${spec.id}: ${code.runs}`, root, { file, quiet: true });
  }
  return restricted;
}
