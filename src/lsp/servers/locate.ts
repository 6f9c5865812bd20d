/**
 * Where a server runs: the workspace root for a file and the binary to start.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { ServerSpec } from './registry';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

/** The root its markers give for a file in `dir`, or undefined when no marker is above it. */
export function findMarkedRoot(spec: ServerSpec, dir: string): string | undefined {
  if (spec.rootRule === 'cargo-workspace') {
    let nearest: string | undefined;
    let workspace: string | undefined;
    for (const d of ancestors(dir)) {
      const manifest = join(d, 'Cargo.toml');
      if (!existsSync(manifest)) continue;
      nearest ??= d;
      if (/^\s*\[workspace\]/m.test(readFileSync(manifest, 'utf8'))) workspace = d;
    }
    if (workspace ?? nearest) return workspace ?? nearest;
  }
  for (const group of spec.rootMarkers) {
    for (const d of ancestors(dir)) {
      if (group.some((m) => existsSync(join(d, m)))) return d;
    }
  }
  return undefined;
}

/** The folder above the top-most package holding `dir` (Python), or undefined when `dir` is no package. */
export function aboveTopPackage(dir: string): string | undefined {
  if (!existsSync(join(dir, '__init__.py'))) return undefined;
  let top = dir;
  while (dirname(top) !== top && existsSync(join(dirname(top), '__init__.py'))) top = dirname(top);
  return dirname(top);
}

/** The workspace root for a file: its markers; else its language's rule; else the git top level; else the file's folder. */
export function findRoot(spec: ServerSpec, file: string): string {
  const start = dirname(file);
  const marked = findMarkedRoot(spec, start);
  if (marked) return marked;
  const packaged = spec.rootRule === 'python-package' ? aboveTopPackage(start) : undefined;
  if (packaged) return packaged;
  for (const d of ancestors(start)) if (existsSync(join(d, '.git'))) return d;
  return start;
}

/** Looks a command up in the project's node_modules/.bin (nearest first), then PATH. */
export function whichCommand(
  command: string,
  root: string,
  env: Record<string, string | undefined>,
): string | undefined {
  if (command.includes('/')) return isExecutable(command) ? command : undefined;
  for (const d of ancestors(root)) {
    const candidate = join(d, 'node_modules', '.bin', command);
    if (isExecutable(candidate)) return candidate;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function majorVersion(pkgJson: string): number {
  try {
    const version: unknown = JSON.parse(readFileSync(pkgJson, 'utf8')).version;
    return typeof version === 'string' ? Number.parseInt(version, 10) : 0;
  } catch {
    return 0;
  }
}

/**
 * TypeScript 7's server is the native binary inside
 * `@typescript/typescript-<platform>-<arch>`; the `.bin/tsc` wrapper would
 * leave a node parent behind, so find and start the binary itself. Older
 * TypeScript (< 7) has no `--lsp`: it does not count.
 */
function locateTypeScriptNative(root: string, env: Record<string, string | undefined>): string | undefined {
  const platformPkg = join('@typescript', `typescript-${process.platform}-${process.arch}`, 'lib', 'tsc');
  const nodeModules = ancestors(root).map((d) => join(d, 'node_modules'));
  const onPath = whichCommand('tsc', '/nonexistent', env);
  if (onPath) {
    try {
      // .../node_modules/typescript/bin/tsc → .../node_modules
      nodeModules.push(dirname(dirname(dirname(realpathSync(onPath)))));
    } catch {}
  }
  for (const dir of nodeModules) {
    const binary = join(dir, platformPkg);
    if (!isExecutable(binary)) continue;
    if (majorVersion(join(dir, 'typescript', 'package.json')) >= 7 || !existsSync(join(dir, 'typescript')))
      return binary;
  }
  return undefined;
}

export function locateBinary(
  spec: ServerSpec,
  root: string,
  env: Record<string, string | undefined>,
): string | undefined {
  if (spec.locate === 'typescript-native') return locateTypeScriptNative(root, env);
  return whichCommand(spec.command, root, env);
}
