/**
 * Where a server runs: the workspace root for a file and the binary to start.
 */
import { accessSync, constants, existsSync, readdirSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { activate, ancestors, findPythonEnv, inMainCheckout, toolFolders, type PythonEnv } from './install-places';
import type { ServerSpec } from './registry';
import type { Trust } from '../../trust/decision';
import { workspaceRoot } from './workspaces';
import { checkoutTop } from '../../project/checkout';
import { isRecord } from '../../common/records';
import { readWorkspaceJson, readWorkspaceText } from '../../common/file-size';

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
      if (/^\s*\[workspace\]/m.test(readWorkspaceText(manifest, 'configuration') ?? '')) workspace = d;
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

/** PATH's folders a program may be taken from: its absolute entries (a relative or empty one means the working folder). */
export function userPathDirs(env: Record<string, string | undefined>): string[] {
  return (env.PATH ?? '').split(delimiter).filter((dir) => dir.startsWith('/'));
}

/** The caller's environment with only PATH's absolute entries: a server's cwd is the workspace, so a relative one would find its programs. */
export function withUserPath(env: Record<string, string>): Record<string, string> {
  if (env.PATH === undefined) return env;
  const path = userPathDirs(env).join(delimiter);
  return path === env.PATH ? env : { ...env, PATH: path };
}

/**
 * Looks a command up project first: the project's node_modules/.bin
 * (nearest first), its Python environment's bin, the same in the main
 * checkout of a worktree, each only where trust covers it; then the
 * user's tool folders, then PATH's absolute entries.
 */
export function findCommand(
  command: string,
  root: string,
  env: Record<string, string | undefined>,
  trust: Trust,
  python?: PythonEnv,
): Found | undefined {
  if (command.includes('/')) return isExecutable(command) ? { path: command, rule: 'its configured path' } : undefined;
  // What the workspace holds runs only once trusted; a program passed over is said, and named if nothing else is found.
  const passed: string[] = [];
  const allowed = (path: string, found: string, where: string) => {
    if (trust.mayRun(path, found, `${command} from ${where}`)) return true;
    passed.push(path);
    return false;
  };
  const nodeModules = (from: string, whose: string): Found | undefined => {
    for (const d of ancestors(from)) {
      const path = inFolder(join(d, 'node_modules', '.bin'), command);
      const where = `${whose}node_modules/.bin`;
      if (path && allowed(path, d, where)) return { path, rule: where };
    }
    return undefined;
  };
  const found = (): Found | undefined => {
    const own = nodeModules(root, '');
    if (own) return own;
    const inPython = python ? inFolder(join(python.prefix, 'bin'), command) : undefined;
    // An environment the caller activated is the user's own choice, wherever it lies.
    const activated = python !== undefined && env.VIRTUAL_ENV === python.prefix;
    if (python && inPython && (activated || allowed(inPython, dirname(python.prefix), 'its Python environment')))
      return { path: inPython, rule: `the Python environment (${python.rule})` };
    const main = inMainCheckout(root);
    const fromMain = main ? nodeModules(main, "the main checkout's ") : undefined;
    if (fromMain) return fromMain;
    for (const dir of toolFolders(env)) {
      const path = inFolder(dir, command);
      if (path) return { path, rule: `the tool folder ${dir}` };
    }
    for (const dir of userPathDirs(env)) {
      const path = inFolder(dir, command);
      if (path) return { path, rule: 'PATH' };
    }
    return undefined;
  };
  const result = found();
  if (!result && passed[0] !== undefined) trust.passedOver.set(command, passed[0]);
  return result;
}

/** The first of PATH's folders holding `command` (what a server that runs it by name gets). */
export function onPath(command: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of userPathDirs(env)) {
    const path = inFolder(dir, command);
    if (path) return path;
  }
  return undefined;
}

function majorVersion(pkgJson: string): number {
  const pkg = readWorkspaceJson(pkgJson);
  const version = isRecord(pkg) ? pkg.version : undefined;
  return typeof version === 'string' ? Number.parseInt(version, 10) : 0;
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
  const native = (dir: string) => {
    const binary = join(dir, platformPkg);
    if (!isExecutable(binary)) return false;
    return majorVersion(join(dir, 'typescript', 'package.json')) >= 7 || !existsSync(join(dir, 'typescript'));
  };
  // The workspace's (and a worktree's main checkout's) node_modules: only once trusted.
  const workspace = ancestors(root);
  const main = inMainCheckout(root);
  if (main) workspace.push(...ancestors(main));
  for (const d of workspace) {
    const dir = join(d, 'node_modules');
    if (native(dir) && trust.mayRun(join(dir, platformPkg), d, 'TypeScript 7 from its node_modules'))
      return join(dir, platformPkg);
  }
  // The user's: beside the tsc on PATH (.../node_modules/typescript/bin/tsc → .../node_modules).
  const tsc = onPath('tsc', env);
  if (!tsc) return undefined;
  try {
    const dir = dirname(dirname(dirname(realpathSync(tsc))));
    return native(dir) ? join(dir, platformPkg) : undefined;
  } catch {
    return undefined;
  }
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
  // Asked where the repository's rust-toolchain file is read only once it is trusted.
  const asked = trust.covers(root) ? root : '/';
  return found && !rustupLacks(found.path, spec.command, asked, env) ? found : undefined;
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
      env,
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

/** The binary a server would run for a root (lspq's own benchmarks, which choose their servers). */
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
  /** The site-packages of a Python environment not trusted: read as files, its interpreter never run. */
  packages?: string[];
}

const servesPython = (spec: ServerSpec) => Object.values(spec.languages).includes('python');

/** The folders of installed packages in a Python environment (`lib/pythonX.Y/site-packages`), read, never run. */
export function sitePackages(prefix: string): string[] {
  const lib = join(prefix, 'lib');
  try {
    return readdirSync(lib)
      .filter((name) => /^python\d/.test(name))
      .map((name) => join(lib, name, 'site-packages'))
      .filter((dir) => existsSync(dir));
  } catch {
    return [];
  }
}

/**
 * The server for files in `dir` under `root`. A Python server runs as if
 * the project's environment were activated (VIRTUAL_ENV and its bin first
 * on PATH) where the caller activated it or trust covers it, so its
 * imports resolve to the packages installed there; the environment is then
 * part of the server's pool key like an activated one. Not trusted, its
 * interpreter and programs never run: its packages are read as files.
 */
export function locateFor(
  spec: ServerSpec,
  root: string,
  env: Record<string, string>,
  trust: Trust,
  dir: string = root,
): Located | undefined {
  const found0 = servesPython(spec) ? findPythonEnv(dir, root, env) : undefined;
  const python =
    found0 &&
    (env.VIRTUAL_ENV === found0.prefix ||
      trust.mayRun(
        join(found0.prefix, 'bin', 'python'),
        dirname(found0.prefix),
        'the interpreter of its Python environment (its packages are read as files meanwhile)',
        true,
      ))
      ? found0
      : undefined;
  // Its programs are looked for in it whether or not it is trusted: one passed over is said.
  const found = locateServer(spec, root, env, trust, found0);
  if (!found) return undefined;
  const packages = found0 && !python ? sitePackages(found0.prefix) : [];
  return {
    binary: found.path,
    rule: found.rule,
    env: withUserPath(python ? activate(env, python) : env),
    ...(python ? { python } : {}),
    ...(packages.length ? { packages } : {}),
  };
}
