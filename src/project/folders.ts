/**
 * Which folders under a root hold a project's sources, decided here for
 * every walk and for the watch:
 *
 * - never sources: dependencies, version control, caches, lspq's own
 *   folder, a Python virtual environment (known by its pyvenv.cfg,
 *   whatever its name) and cargo's target beside a Cargo.toml. No walk
 *   enters them and the watch leaves them out.
 * - build output: what git ignores in the checkout (`dist/` in the usual
 *   .gitignore), or, outside a checkout, the usual names. Walks for
 *   sources (a workspace's projects, diag --all's files) skip it; the watch
 *   keeps it, since a server reads built declarations too. A folder named
 *   `build` that git tracks (a workspace package kept there) is sources.
 * - hidden folders (`.github`, `.vscode`) and vendored dependencies
 *   (`vendor`): walks for sources skip them.
 *
 * git's own lists of files (diag --all's, diag's changed files) go
 * through the first rule too (inNeverSources): a `.venv` git does not
 * ignore is listed file by file. A place a server names (a workspace
 * symbol) is a dependency's where it lies outside the project or in a
 * folder of dependencies under it (inDependencies).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithin } from '../common/paths';

const NEVER_SOURCES = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.cache',
  '.lspq',
  'site-packages',
]);

/** Build output by name, where no checkout says what is ignored. */
export const BUILD_OUTPUT_NAMES: ReadonlySet<string> = new Set(['dist', 'build', 'out', 'coverage', '.next', '.turbo']);

/** A folder that is never the project's sources: no walk enters it, and the watch leaves it out. */
export function neverSources(dir: string, name = basename(dir)): boolean {
  if (NEVER_SOURCES.has(name)) return true;
  if (existsSync(join(dir, 'pyvenv.cfg'))) return true;
  return name === 'target' && existsSync(join(dir, '..', 'Cargo.toml'));
}

/**
 * Whether a walk for sources leaves `dir` out: never sources, hidden, or
 * build output (`ignored`: the folders git ignores in its checkout, from
 * ignoredFolders; undefined outside a checkout, where the names decide).
 */
export function notSources(dir: string, ignored: ReadonlySet<string> | undefined, name = basename(dir)): boolean {
  if (name.startsWith('.') || name === 'vendor' || neverSources(dir, name)) return true;
  return ignored ? ignored.has(dir) : BUILD_OUTPUT_NAMES.has(name);
}

/**
 * A test of files under `top` (git's lists of them): whether a file lies
 * in a folder that is never sources (a `.venv` no .gitignore names, its
 * pyvenv.cfg beside its thousand files). Each folder is looked at once.
 */
export function inNeverSources(top: string): (path: string) => boolean {
  const known = new Map<string, boolean>();
  const never = (dir: string): boolean => {
    if (dir.length <= top.length || !dir.startsWith(`${top}/`)) return false;
    let is = known.get(dir);
    if (is === undefined) {
      is = never(dirname(dir)) || neverSources(dir);
      known.set(dir, is);
    }
    return is;
  };
  return (path) => never(dirname(path));
}

/**
 * A test of the places a server names (workspace symbols): whether one is a
 * dependency's, not the project's under `top` (its checkout, else the
 * server's root): outside it (the standard library, a module cache), or in
 * a folder of dependencies under it (node_modules, vendor, a virtual environment).
 */
export function inDependencies(top: string): (path: string) => boolean {
  const never = inNeverSources(top);
  return (path) => !isWithin(path, top) || never(path) || dirname(path).slice(top.length).split('/').includes('vendor');
}
