/**
 * TypeScript server plugins a project's framework needs: with
 * typescript-svelte-plugin, tsserver knows what a .ts file's exports are
 * to the .svelte components that import them (references and renames from
 * a .ts file reach the components). typescript-language-server takes them
 * as global plugins (`initializationOptions.plugins`, each a name and the
 * folder its node_modules is in), so the project's tsconfig need not name
 * them. Where the project has the framework's package: the plugin from the
 * project's node_modules when the repository is trusted (it is the
 * repository's code), else the user's, installed beside the framework's
 * own language server.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BoundedCache } from '../../common/bounded-cache';
import { ancestors } from './install-places';
import { onPath } from './locate';
import type { ServerSpec, TsPlugin } from './spec';
import type { Trust } from '../../trust/decision';
import { isRecord } from '../../common/records';

/**
 * The folder holding the `node_modules` that has `name`, nearest at or
 * above `dir`. Asked on every question's way to its server: remembered by
 * package and folder for a few seconds (an npm install is seen within them).
 */
const holders = new BoundedCache<string, { dir: string | undefined }>(256, 3_000);
export function holderAbove(name: string, dir: string): string | undefined {
  const key = `${name}\0${dir}`;
  const known = holders.get(key);
  if (known) return known.dir;
  return holders.set(key, {
    dir: ancestors(dir).find((d) => existsSync(join(d, 'node_modules', name, 'package.json'))),
  }).dir;
}

/** The plugin where the user installed the framework's language server (a global npm install puts them side by side). */
function besideServer(
  plugin: TsPlugin,
  env: Record<string, string>,
  realOf: (p: string) => string,
): string | undefined {
  const server = onPath(plugin.beside, env);
  if (!server) return undefined;
  for (let d = dirname(realOf(server)); d !== dirname(d); d = dirname(d))
    if (d.endsWith('/node_modules') && existsSync(join(d, plugin.name, 'package.json'))) return dirname(d);
  return undefined;
}

/** `spec` with the plugins its `tsPlugins` name that the project at `root` needs and that are found. */
export function withTsPlugins(
  spec: ServerSpec,
  root: string,
  trust: Trust,
  env: Record<string, string>,
  realOf: (p: string) => string,
): ServerSpec {
  const plugins: { name: string; location: string; languages: string[] }[] = [];
  for (const plugin of spec.tsPlugins ?? []) {
    if (!holderAbove(plugin.forPackage, root)) continue;
    const project = holderAbove(plugin.name, root);
    const trusted =
      project !== undefined &&
      trust.mayRun(join(project, 'node_modules', plugin.name), project, `its tsserver plugin ${plugin.name}`);
    const location = trusted ? project : besideServer(plugin, env, realOf);
    if (location) plugins.push({ name: plugin.name, location, languages: Object.values(plugin.languages ?? {}) });
  }
  if (plugins.length === 0) return spec;
  const options = spec.initializationOptions;
  const own = isRecord(options) ? options : {};
  return { ...spec, initializationOptions: { ...own, plugins } };
}

/** Whether `spec`, as planned for a root, can read `path`: a file only a plugin makes readable (.vue) needs it loaded. */
export function readsWithPlugins(spec: ServerSpec, path: string): boolean {
  const needing = (spec.tsPlugins ?? []).filter((p) =>
    Object.keys(p.languages ?? {}).some((ext) => path.endsWith(ext)),
  );
  if (needing.length === 0) return true;
  const options = spec.initializationOptions as { plugins?: { name: string }[] } | undefined;
  return needing.some((p) => options?.plugins?.some((loaded) => loaded.name === p.name));
}

/** The extensions a server reads of itself, without a plugin (.vue is typescript-language-server's only with Vue's). */
export function ownExtensions(spec: ServerSpec): string[] {
  const byPlugins = new Set((spec.tsPlugins ?? []).flatMap((p) => Object.keys(p.languages ?? {})));
  return Object.keys(spec.languages).filter((ext) => !byPlugins.has(ext));
}

/**
 * The plugins `spec`, as planned for a root, did not load (the project has
 * not the framework's package, or the plugin is not found where the user
 * installs it): the files of the extensions they reach are unknown to it,
 * so an answer across the workspace cannot cover them (a published
 * package's .vue components, with nothing installed).
 */
export function missingPlugins(spec: ServerSpec): TsPlugin[] {
  const options = spec.initializationOptions as { plugins?: { name: string }[] } | undefined;
  return (spec.tsPlugins ?? []).filter(
    (p) => p.reaches !== undefined && !options?.plugins?.some((loaded) => loaded.name === p.name),
  );
}

/** How a missing plugin is installed where lspq looks for it: beside the framework's own language server. */
export const pluginInstall = (p: TsPlugin) => `npm install -g ${p.name} beside ${p.beside}`;

/** The plugins `spec` did not load though the project at `root` has their framework: files it cannot search. */
export function pluginsLacking(spec: ServerSpec, root: string): TsPlugin[] {
  return missingPlugins(spec).filter((p) => holderAbove(p.forPackage, root) !== undefined);
}
