/**
 * Where a server runs: the workspace root for a file and the binary to start.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { activate, ancestors, findPythonEnv, inMainCheckout, toolFolders, type PythonEnv } from './install-places';
import type { ServerSpec } from './registry';
import type { Trust } from './trust';
import { workspaceRoot } from './workspaces';
import { checkoutTop } from '../../project/checkout';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The root its markers give for a file in `dir`, or undefined when no
 * marker is above it; the workspace's root where the project declares one.
 */
export function findMarkedRoot(spec: ServerSpec, dir: string): string | undefined {
  const marked = nearestMarkedRoot(spec, dir);
  const workspace = spec.workspaces ? workspaceRoot(spec.workspaces, marked ?? dir) : undefined;
  return workspace ?? marked;
}

/** The root its markers give, the package's own, not its workspace's. */
export function nearestMarkedRoot(spec: ServerSpec, dir: string): string | undefined {
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
  const workspace = spec.workspaces ? workspaceRoot(spec.workspaces, start) : undefined;
  if (workspace) return workspace;
  const packaged = spec.rootRule === 'python-package' ? aboveTopPackage(start) : undefined;
  if (packaged) return packaged;
  return checkoutTop(start) ?? start;
}

/** A binary and the rule that found it (shown by `lspq servers`). */
export interface Found {
  path: string;
  rule: string;
}

const inFolder = (dir: string, command: string) => (isExecutable(join(dir, command)) ? join(dir, command) : undefined);

/**
 * Looks a command up project first: the project's node_modules/.bin
 * (nearest first), its Python environment's bin, the same in the main
 * checkout of a worktree, then the user's tool folders, then PATH.
 */
export function findCommand(
  command: string,
  root: string,
  env: Record<string, string | undefined>,
  trust: Trust,
  python?: PythonEnv,
): Found | undefined {
  if (command.includes('/')) return isExecutable(command) ? { path: command, rule: 'its configured path' } : undefined;
  // What the project keeps runs only where the trust allows it (the repository's own: once trusted).
  const allowed = (path: string) => trust.mayRun(path, root, path);
  const nodeModules = (from: string, whose: string): Found | undefined => {
    for (const d of ancestors(from)) {
      const path = inFolder(join(d, 'node_modules', '.bin'), command);
      if (path && allowed(path)) return { path, rule: `${whose} node_modules/.bin` };
    }
    return undefined;
  };
  const own = nodeModules(root, "the project's");
  if (own) return own;
  const inPython = python ? inFolder(join(python.prefix, 'bin'), command) : undefined;
  if (inPython && allowed(inPython)) return { path: inPython, rule: `the Python environment (${python!.rule})` };
  const main = inMainCheckout(root);
  const fromMain = main ? nodeModules(main, "the main checkout's") : undefined;
  if (fromMain) return fromMain;
  for (const dir of toolFolders(env)) {
    const path = inFolder(dir, command);
    if (path) return { path, rule: `the tool folder ${dir}` };
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const path = dir ? inFolder(dir, command) : undefined;
    if (path) return { path, rule: 'PATH' };
  }
  return undefined;
}

/** The first of PATH's folders holding `command` (what a server that runs it by name gets). */
export function onPath(command: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const path = dir ? inFolder(dir, command) : undefined;
    if (path) return path;
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
function locateTypeScriptNative(
  root: string,
  env: Record<string, string | undefined>,
  trust: Trust,
): string | undefined {
  const platformPkg = join('@typescript', `typescript-${process.platform}-${process.arch}`, 'lib', 'tsc');
  const nodeModules = ancestors(root).map((d) => join(d, 'node_modules'));
  const main = inMainCheckout(root);
  if (main) nodeModules.push(...ancestors(main).map((d) => join(d, 'node_modules')));
  const tsc = onPath('tsc', env);
  if (tsc) {
    try {
      // .../node_modules/typescript/bin/tsc → .../node_modules
      nodeModules.push(dirname(dirname(dirname(realpathSync(tsc)))));
    } catch {}
  }
  for (const dir of nodeModules) {
    const binary = join(dir, platformPkg);
    if (!isExecutable(binary) || !trust.mayRun(binary, root, binary)) continue;
    if (majorVersion(join(dir, 'typescript', 'package.json')) >= 7 || !existsSync(join(dir, 'typescript')))
      return binary;
  }
  return undefined;
}

/** The server's binary for a root, and how it was found; `python` is the project's environment for a Python server. */
export function locateServer(
  spec: ServerSpec,
  root: string,
  env: Record<string, string | undefined>,
  trust: Trust,
  python?: PythonEnv,
): Found | undefined {
  if (spec.locate === 'typescript-native') {
    const path = locateTypeScriptNative(root, env, trust);
    return path ? { path, rule: "TypeScript's native package" } : undefined;
  }
  const found = findCommand(spec.command, root, env, trust, python);
  return found && !rustupLacks(found.path, spec.command, root, env) ? found : undefined;
}

/** What rustup said of a proxy's component, by toolchain folder and command: asked once per daemon. */
const rustupAnswers = new Map<string, boolean>();

/**
 * Whether `path` is rustup's proxy for a component the toolchain does not
 * have (rust-analyzer before `rustup component add rust-analyzer`): the
 * proxy is on PATH either way, and run, it only prints an error.
 */
function rustupLacks(path: string, command: string, root: string, env: Record<string, string | undefined>): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  if (!/(^|\/)rustup(\.exe)?$/.test(real)) return false;
  const key = JSON.stringify([real, command, root, env.RUSTUP_TOOLCHAIN, env.RUSTUP_HOME]);
  const known = rustupAnswers.get(key);
  if (known !== undefined) return !known;
  let has = false;
  try {
    const r = Bun.spawnSync([real, 'which', command], {
      cwd: root,
      env: env as Record<string, string>,
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'ignore',
      timeout: 5_000,
    });
    has = r.exitCode === 0;
  } catch {}
  rustupAnswers.set(key, has);
  return !has;
}

export function locateBinary(
  spec: ServerSpec,
  root: string,
  env: Record<string, string | undefined>,
  trust: Trust,
): string | undefined {
  return locateServer(spec, root, env, trust)?.path;
}

/** A server ready to start: its binary, the rule that found it, and the environment it runs in. */
export interface Located {
  binary: string;
  rule: string;
  env: Record<string, string>;
  /** The Python environment it was given, for a Python server that found one. */
  python?: PythonEnv;
}

const servesPython = (spec: ServerSpec) => Object.values(spec.languages).includes('python');

/**
 * The server for files in `dir` under `root`: a Python server runs as if
 * the project's environment were activated (VIRTUAL_ENV and its bin first
 * on PATH), so its imports resolve to the packages installed there; the
 * environment is then part of the server's pool key like an activated one.
 */
export function locateFor(
  spec: ServerSpec,
  root: string,
  env: Record<string, string>,
  trust: Trust,
  dir: string = root,
): Located | undefined {
  // A project's environment the repository itself carries runs nothing until trusted: not its
  // binaries, nor its interpreter (a server asks it for its search paths), nor its PATH.
  const found0 = servesPython(spec) ? findPythonEnv(dir, root, env) : undefined;
  const python =
    found0 &&
    (env.VIRTUAL_ENV === found0.prefix || trust.mayRun(join(found0.prefix, 'bin', 'python'), root, found0.prefix))
      ? found0
      : undefined;
  const found = locateServer(spec, root, env, trust, python);
  if (!found) return undefined;
  return {
    binary: found.path,
    rule: found.rule,
    env: python ? activate(env, python) : env,
    ...(python ? { python } : {}),
  };
}
