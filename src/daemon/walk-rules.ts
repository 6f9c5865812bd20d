/** Which folders under a root are the project's sources: the rest is never walked or watched. */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Folders that are not the project's sources, by name. */
const SKIPPED = new Set([
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
]);

/** A folder the walk leaves out: by name, a virtual environment, or cargo's build output. */
export function skipped(dir: string): boolean {
  const name = basename(dir);
  if (SKIPPED.has(name)) return true;
  if (existsSync(join(dir, 'pyvenv.cfg'))) return true;
  return name === 'target' && existsSync(join(dir, '..', 'Cargo.toml'));
}
