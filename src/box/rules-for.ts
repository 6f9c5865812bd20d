/**
 * What a box holds for one program lspq starts for a workspace: the
 * system's folders, the toolchains the program runs from, the workspace
 * and its parents' files, all read-only; its private scratch writable;
 * nothing of the user's home but those toolchains. An allowlist of what
 * may be read, so a secret no one thought of stays out (docs/security.md).
 */
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin } from '../common/paths';
import { exists } from '../common/workspace-guard';
import { checkoutTop } from '../project/checkout';
import type { BoxRules } from './rules';

type Env = Record<string, string | undefined>;

/** The system's folders: programs, libraries and their configuration. Not /home, /root, /tmp, /run, /mnt, /srv. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix', '/snap'];

/** Files of a parent folder bound at most: a parent is a project's (a base tsconfig), not a store of files. */
const PARENT_FILES_MAX = 64;

export interface BoxedProgram {
  /** The workspace it runs for: read-only. */
  root: string;
  /** The program's binary (its install is read); undefined for a program found on PATH by name. */
  binary?: string;
  /** Its writable scratch: HOME, TMPDIR and the caches. */
  scratch: string;
  /** More it may read: a Python environment, a git repository's common folder. */
  read?: string[];
  /** More it may write: a work tree for a git write the policy allows. */
  write?: string[];
  network?: boolean;
  /** The caller's environment, before the box's allowlist: where its toolchains are. */
  env: Env;
}

/**
 * What a box must hold for `path` to resolve in it as it does outside:
 * each link met on the way (made as a link where bubblewrap builds the
 * box's folders) and the real place it ends at.
 */
export function linkChain(path: string, depth = 0): string[] {
  const parts = path.split('/').filter(Boolean);
  let at = '/';
  for (const [i, part] of parts.entries()) {
    const next = join(at, part);
    let target: string | undefined;
    try {
      if (lstatSync(next).isSymbolicLink()) target = readlinkSync(next);
    } catch {
      return [join(at, ...parts.slice(i))];
    }
    if (target !== undefined) {
      // A loop of links resolves nowhere: its first link is all there is to hold.
      if (depth > 16) return [next];
      const rest = join(resolve(at, target), ...parts.slice(i + 1));
      return [next, ...linkChain(rest, depth + 1)];
    }
    at = next;
  }
  return [at];
}

const underSystem = (path: string) => SYSTEM.some((s) => isWithin(path, s));

/**
 * The folder a program is installed as: the outermost `node_modules` it
 * lies in (a package and its dependencies), else its folder, or the
 * prefix above a `bin` folder (GOROOT above go/bin).
 */
export function installOf(program: string, home?: string): string {
  const parts = program.split('/');
  const nm = parts.indexOf('node_modules');
  if (nm > 0) return parts.slice(0, nm + 1).join('/');
  const dir = dirname(program);
  const prefix = dirname(dir);
  // A home's own tool folder (~/.cargo/bin, ~/.local/bin) is its bin alone: the folder above keeps credentials.
  const homeFolder = home !== undefined && dirname(prefix) === home;
  return basename(dir) === 'bin' && prefix !== '/' && !homeFolder ? prefix : dir;
}

/** The interpreter a script's first line names (`#!/usr/bin/env node`: found on PATH), if it is one. */
function interpreterOf(program: string, env: Env): string | undefined {
  let line: string;
  try {
    const fd = openSync(program, 'r');
    try {
      const buf = Buffer.alloc(256);
      const n = readSync(fd, buf, 0, buf.length, 0);
      line = buf.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!line.startsWith('#!')) return undefined;
  const words = line.slice(2).trim().split(/\s+/);
  const [first, ...rest] = words;
  if (!first) return undefined;
  if (basename(first) !== 'env') return first;
  const name = rest.find((w) => !w.startsWith('-'));
  return name ? onUserPath(name, env) : undefined;
}

function onUserPath(name: string, env: Env): string | undefined {
  for (const dir of pathDirs(env)) {
    const path = join(dir, name);
    if (exists(path)) return path;
  }
  return undefined;
}

const pathDirs = (env: Env) => (env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d));

/** A program's install and its interpreter's, each where its links really lead. */
function programPlaces(program: string, env: Env, depth = 0): string[] {
  const chain = linkChain(program);
  const real = chain.at(-1) ?? program;
  const places = [dirname(program), ...chain.slice(0, -1), installOf(real, env.HOME)];
  const interpreter = depth < 2 ? interpreterOf(real, env) : undefined;
  if (interpreter) places.push(...programPlaces(interpreter, env, depth + 1));
  return places;
}

/** Links in a PATH folder of the user's (not the system's): where each leads, for the toolchain it belongs to. */
const linkedInstalls = new Map<string, string[]>();
function installsLinkedFrom(dir: string, home: string | undefined): string[] {
  const known = linkedInstalls.get(dir);
  if (known) return known;
  const found = new Set<string>();
  try {
    const names = readdirSync(dir);
    // A folder of hundreds of links is a system's; its programs' installs are found as they are run.
    for (const name of names.slice(0, 256)) {
      const path = join(dir, name);
      try {
        if (!lstatSync(path).isSymbolicLink()) continue;
      } catch {
        continue;
      }
      // Each link on the way to it (a `.tools/venv` linked into a cache), and the install it ends in.
      const chain = linkChain(path);
      for (const hop of chain.slice(1, -1)) found.add(hop);
      const real = chain.at(-1);
      if (real !== undefined && real !== path) found.add(installOf(real, home));
    }
  } catch {}
  const list = [...found];
  if (linkedInstalls.size > 64) linkedInstalls.clear();
  linkedInstalls.set(dir, list);
  return list;
}

/**
 * The toolchains' homes the user's environment names, or their usual
 * places: read-only, so a server finds its standard library, its module
 * cache and its interpreters. Only the parts that hold programs and
 * sources: not `~/.cargo/credentials`, not a whole home.
 */
export function toolchainHomes(env: Env): string[] {
  const home = env.HOME;
  const at = (value: string | undefined, fallback: string[]) =>
    value ? [value] : home ? [join(home, ...fallback)] : [];
  const cargo = at(env.CARGO_HOME, ['.cargo'])[0];
  const gopath = (env.GOPATH ?? '').split(delimiter).filter(Boolean);
  const goHomes = gopath.length ? gopath : home ? [join(home, 'go')] : [];
  return [
    ...at(env.RUSTUP_HOME, ['.rustup']),
    ...(cargo ? ['bin', 'registry', 'git'].map((d) => join(cargo, d)) : []),
    ...(env.GOMODCACHE ? [env.GOMODCACHE] : goHomes.map((g) => join(g, 'pkg', 'mod'))),
    ...goHomes.map((g) => join(g, 'bin')),
    ...(env.GOROOT ? [env.GOROOT] : []),
    ...at(env.PYENV_ROOT, ['.pyenv']),
    ...at(env.NVM_DIR, ['.nvm']),
    ...at(env.VOLTA_HOME, ['.volta']),
    ...at(env.BUN_INSTALL, ['.bun']),
    ...at(env.DENO_INSTALL, ['.deno']),
    ...(home ? [join(home, '.local', 'bin'), join(home, '.local', 'lib'), join(home, '.local', 'pipx')] : []),
    ...(env.VIRTUAL_ENV ? [env.VIRTUAL_ENV] : []),
    ...(env.JAVA_HOME ? [env.JAVA_HOME] : []),
    ...(env.LSPQ_BOX_READ ?? '').split(delimiter).filter((d) => isAbsolute(d)),
  ];
}

const sticky = (dir: string) => {
  try {
    return (lstatSync(dir).mode & 0o1000) !== 0;
  } catch {
    return false;
  }
};

/** The regular files of a folder, for a parent of the workspace (a base configuration): not its folders. */
function filesOf(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .slice(0, PARENT_FILES_MAX)
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * The parents' files a workspace's tools read (a base tsconfig, an
 * .editorconfig): every folder above the root but `/` and the user's home
 * itself, whose files are the user's (`.netrc`, a shell's history).
 */
function parentFiles(root: string, home: string | undefined): string[] {
  const files: string[] = [];
  for (let d = dirname(root); d !== dirname(d); d = dirname(d)) {
    if (home && (d === home || isWithin(home, d))) continue;
    // A shared folder (/tmp, sticky and open to all) is no project's parent: other users' files lie there.
    if (sticky(d)) continue;
    files.push(...filesOf(d));
  }
  return files;
}

/** The rules for one program: what it may read, write and reach. */
export function rulesFor(p: BoxedProgram): BoxRules {
  const env = p.env;
  const home = env.HOME && env.HOME !== '/' ? env.HOME : undefined;
  const top = checkoutTop(p.root);
  const userPath = pathDirs(env).filter((d) => !underSystem(d) && !(home && isWithin(home, d)));
  const read = [
    ...SYSTEM,
    ...userPath,
    ...userPath.flatMap((d) => installsLinkedFrom(d, home)),
    ...toolchainHomes(env),
    ...(p.binary ? programPlaces(p.binary, env) : []),
    ...(top && top !== p.root ? [top] : []),
    ...parentFiles(top ?? p.root, home),
    ...(p.read ?? []),
  ];
  // A folder above the user's home (or `/`) would hold the home again: never read whole.
  const kept = read.filter((r) => r !== '/' && !(home && isWithin(home, r)) && exists(r));
  // The workspace itself is what was asked about, wherever it lies.
  const reads = [...kept, p.root].flatMap((r) => linkChain(r));
  // A writable folder reached through links: the links are read, the folder they end at written.
  const writes = [p.scratch, ...(p.write ?? [])].map((w) => linkChain(w));
  return {
    read: [...new Set([...reads, ...writes.flatMap((c) => c.slice(0, -1))])],
    write: [...new Set(writes.flatMap((c) => c.slice(-1)))],
    network: p.network === true,
  };
}
