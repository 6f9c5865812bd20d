/**
 * Where a project keeps its tools, besides PATH: its node_modules/.bin, its
 * Python environment, the main checkout of a git worktree (agents work in
 * worktrees that have neither), and the user's tool folders. Read from the
 * file system and the caller's environment only.
 */
import { existsSync } from 'node:fs';
import { readWorkspaceFile } from '../../common/file-size';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';

export function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

/**
 * The same folder in the main checkout when `dir` lies in a linked git
 * worktree (its `.git` is a file naming `<main>/.git/worktrees/<name>`),
 * else undefined.
 */
export function inMainCheckout(dir: string): string | undefined {
  for (const d of ancestors(dir)) {
    const dotGit = join(d, '.git');
    if (!existsSync(dotGit)) continue;
    const got = readWorkspaceFile(dotGit, 'configuration');
    if (!got.read) return undefined; // a folder: the main checkout itself (or a .git lspq does not read)
    const gitdir = /^gitdir:\s*(.+)$/m.exec(got.bytes.toString('utf8'))?.[1]?.trim();
    if (!gitdir) return undefined;
    const worktrees = dirname(resolve(d, gitdir));
    if (!worktrees.endsWith(`${join('.git', 'worktrees')}`)) return undefined; // a submodule's .git file
    const main = dirname(dirname(worktrees));
    return join(main, relative(d, dir));
  }
  return undefined;
}

export interface PythonEnv {
  /** The environment's folder (what VIRTUAL_ENV names). */
  prefix: string;
  /** How it was found, for `lspq servers`. */
  rule: string;
}

const isVenv = (dir: string) => existsSync(join(dir, 'pyvenv.cfg')) && existsSync(join(dir, 'bin'));

/**
 * The project's Python environment for a file in `dir`: $VIRTUAL_ENV (an
 * activated shell said so), else a `.venv/` or `venv/` at or above `dir`
 * up to `root`, else the same in the main checkout of a worktree.
 */
export function findPythonEnv(
  dir: string,
  root: string,
  env: Record<string, string | undefined>,
): PythonEnv | undefined {
  if (env.VIRTUAL_ENV && isAbsolute(env.VIRTUAL_ENV)) return { prefix: env.VIRTUAL_ENV, rule: '$VIRTUAL_ENV' };
  const look = (from: string, top: string, where: string): PythonEnv | undefined => {
    for (const d of ancestors(from)) {
      for (const name of ['.venv', 'venv']) {
        if (isVenv(join(d, name))) return { prefix: join(d, name), rule: `${where}${name}/` };
      }
      if (d === top || !d.startsWith(top)) break;
    }
    return undefined;
  };
  const here = look(dir, root, "the project's ");
  if (here) return here;
  const mainDir = inMainCheckout(dir);
  const mainRoot = inMainCheckout(root);
  return mainDir && mainRoot ? look(mainDir, mainRoot, "the main checkout's ") : undefined;
}

/** The caller's environment as an activated Python environment has it: VIRTUAL_ENV set, its bin first on PATH. */
export function activate(env: Record<string, string>, python: PythonEnv): Record<string, string> {
  if (env.VIRTUAL_ENV === python.prefix) return env;
  const bin = join(python.prefix, 'bin');
  return { ...env, VIRTUAL_ENV: python.prefix, PATH: env.PATH ? `${bin}${delimiter}${env.PATH}` : bin };
}

/**
 * The user's tool folders, where `go install`, `cargo install`, `pipx` and
 * `uv tool`, and Neovim's Mason put servers. LSPQ_TOOL_DIRS replaces the
 * list (empty: none), for a machine or a test that wants only PATH.
 */
export function toolFolders(env: Record<string, string | undefined>): string[] {
  if (env.LSPQ_TOOL_DIRS !== undefined) return env.LSPQ_TOOL_DIRS.split(delimiter).filter(Boolean);
  const home = env.HOME;
  if (!home) return [];
  const gopath = env.GOPATH?.split(delimiter)[0] || join(home, 'go');
  return [
    env.GOBIN || join(gopath, 'bin'),
    join(env.CARGO_HOME || join(home, '.cargo'), 'bin'),
    join(home, '.local', 'bin'),
    join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'nvim', 'mason', 'bin'),
  ];
}
