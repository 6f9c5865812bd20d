/**
 * Monorepos: the root of a file is its workspace's root where the project
 * declares one, so one server answers for every package of it, whichever
 * package asks. Declared by `workspaces` in package.json, a
 * pnpm-workspace.yaml, lerna.json, nx.json, turbo.json or a tsconfig with
 * `references` (JavaScript and TypeScript); by `[tool.uv.workspace]` in a
 * pyproject.toml (Python). Cargo's `[workspace]` and go.work are the
 * registry's root rules (locate.ts). Only within the file's git checkout:
 * a stray declaration above it (in a home folder) is not the project's.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkoutTop } from '../../project/checkout';
import { isRecord } from '../../common/records';
import { readWorkspaceJson, readWorkspaceText } from '../../common/file-size';

export type WorkspaceKind = 'js' | 'uv';

/** A tsconfig that references other projects: a solution over them (its comments and trailing commas allowed). */
function referencesProjects(tsconfig: string): boolean {
  return /"references"\s*:\s*\[\s*\{/.test(readWorkspaceText(tsconfig, 'configuration') ?? '');
}

/** Whether `dir` declares a workspace of the kind. */
export function declaresWorkspace(kind: WorkspaceKind, dir: string): boolean {
  if (kind === 'uv') {
    return /^\s*\[tool\.uv\.workspace\]/m.test(readWorkspaceText(join(dir, 'pyproject.toml'), 'configuration') ?? '');
  }
  const pkg = readWorkspaceJson(join(dir, 'package.json'));
  if (isRecord(pkg) && pkg.workspaces !== undefined) return true;
  if (['pnpm-workspace.yaml', 'lerna.json', 'nx.json', 'turbo.json'].some((f) => existsSync(join(dir, f)))) return true;
  return referencesProjects(join(dir, 'tsconfig.json'));
}

/**
 * The top-most folder at or above `dir` that declares a workspace of the
 * kind, within its git checkout (outside one, below the home folder and
 * the filesystem's root); undefined where none does.
 */
export function workspaceRoot(kind: WorkspaceKind, dir: string): string | undefined {
  const top = checkoutTop(dir);
  const home = homedir();
  let found: string | undefined;
  for (let d = dir; ; d = dirname(d)) {
    if (!top && (d === home || dirname(d) === d)) return found;
    if (declaresWorkspace(kind, d)) found = d;
    if (d === top || dirname(d) === d) return found;
  }
}
