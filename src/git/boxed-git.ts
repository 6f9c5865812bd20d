/**
 * How a git process is started: the git on the user's PATH (its absolute
 * entries: a relative one would find a workspace's `./git`), and for a
 * repository the user has not trusted, in the box (src/box/): the
 * repository read-only for a read, its work tree and `.git` writable for a
 * write the policy allows, the network only for a call that needs it. So a
 * lazy fetch of a partial clone, a filter a submodule's config names or a
 * flag the policy misread can neither write nor reach anything.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { boxed } from '../box/command';
import { checkoutTop } from '../project/checkout';
import { Trust } from '../trust/decision';

/**
 * What a git call may change: nothing; the work tree and repository; those
 * and the network, reading the repositories it reaches on this machine
 * (fetch, pull); or writing them too (push).
 */
export type GitAccess = 'read' | 'write' | 'fetch' | 'push';

type Env = Record<string, string>;

/** git on PATH's absolute entries, or plain `git` (then the spawn's error says it is missing). */
export function gitProgram(env: Record<string, string | undefined>): string {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const path = join(dir, 'git');
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {}
  }
  return 'git';
}

/** The repository folders of the work tree at `top`: its `.git`, and for a linked worktree the common one. */
function gitFolders(top: string, env: Env): string[] {
  const folders: string[] = [];
  if (env.GIT_DIR) folders.push(resolve(top, env.GIT_DIR));
  const dotGit = join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) folders.push(dotGit);
    else {
      const named = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (named) {
        const dir = resolve(top, named);
        folders.push(dir);
        const common = readFileSync(join(dir, 'commondir'), 'utf8').trim();
        if (common) folders.push(resolve(dir, common));
      }
    }
  } catch {}
  if (env.GIT_COMMON_DIR) folders.push(resolve(top, env.GIT_COMMON_DIR));
  return [...new Set(folders)];
}

/** The user's own git configuration, which the box's HOME would hide: named to git, read-only. */
function userGitConfig(env: Env): { read: string[]; env: Env } {
  const home = env.HOME;
  if (!home) return { read: [], env: {} };
  const candidates = [
    env.GIT_CONFIG_GLOBAL,
    join(home, '.gitconfig'),
    join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'),
  ];
  const global = candidates.find((c): c is string => {
    try {
      return c !== undefined && statSync(c).isFile();
    } catch {
      return false;
    }
  });
  return global ? { read: [global], env: { GIT_CONFIG_GLOBAL: global } } : { read: [], env: {} };
}

/** What a network call needs of the user: ssh's keys and known hosts, git's stored credentials. */
const networkReads = (env: Env) => (env.HOME ? [join(env.HOME, '.ssh'), join(env.HOME, '.git-credentials')] : []);

/** The argv and environment of `git ARGS` run in `cwd`. */
export function gitCommand(
  args: readonly string[],
  cwd: string,
  env: Env,
  access: GitAccess,
  reach: readonly string[],
): { argv: string[]; env: Env } {
  const git = gitProgram(env);
  const argv = [git, ...args];
  const top = checkoutTop(cwd) ?? cwd;
  const box = new Trust(env).boxFor([top]);
  if (!box) return { argv, env };
  const repo = gitFolders(top, env);
  const network = access === 'fetch' || access === 'push';
  const config = userGitConfig(env);
  const run = boxed(argv, box, {
    purpose: 'git',
    root: top,
    ...(git.startsWith('/') ? { binary: git } : {}),
    cwd,
    env: { ...env, ...config.env },
    git: true,
    read: [...repo, ...config.read, ...(network ? [...networkReads(env), ...reach] : [])],
    // A push writes the repositories it reaches on this machine; a fetch only reads them.
    ...(access === 'read' ? {} : { write: [top, ...repo, ...(access === 'push' ? reach : [])] }),
    ...(network ? { network: true } : {}),
  });
  return { argv: run.argv, env: run.env };
}
