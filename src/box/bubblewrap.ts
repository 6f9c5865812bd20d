/**
 * A box made by bubblewrap: a new mount namespace holding only what the
 * rules let the program read (read-only) and write, fresh /dev, /proc and
 * /tmp, no network, its own PID namespace (so nothing it starts outlives
 * it), ended with the process that started it.
 */
import type { BoxRules } from './rules';

/** The character devices every program may open: nothing that reaches hardware or another terminal. */
const DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'];

/** What bubblewrap needs of a path that exists: a link is made as a link (merged /usr's /bin), the rest bound. */
export type PathKind = { link: string } | 'dir' | 'file' | undefined;

/**
 * bubblewrap's arguments for `argv` under `rules`, run in `cwd`. `kindOf`
 * tells what each path is (a link's target), so this stays a pure function
 * of what it is told.
 */
export function bubblewrapArgs(
  rules: BoxRules,
  argv: readonly string[],
  cwd: string,
  kindOf: (path: string) => PathKind,
): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-user-try',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(rules.network ? [] : ['--unshare-net']),
    // The devices a program needs, bound one by one: a whole new /dev costs each start ~3 ms.
    ...DEVICES.flatMap((d) => ['--dev-bind', d, d]),
    ...['fd', 'stdin', 'stdout', 'stderr'].flatMap((n, i) => [
      '--symlink',
      i === 0 ? '/proc/self/fd' : `/proc/self/fd/${i - 1}`,
      `/dev/${n}`,
    ]),
    '--tmpfs',
    '/dev/shm',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  // Shallow paths first, so a deeper bind lands inside the folder bound above it rather than under it.
  const byDepth = (paths: string[]) =>
    [...new Set(paths)].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  const writable = new Set(rules.write);
  // Folders bound so far, by whether writable: what lies inside one comes with it, unless its access differs.
  const bound = new Map<string, boolean>();
  const within = (path: string, write: boolean) =>
    [...bound].some(([dir, w]) => w === write && path.startsWith(`${dir}/`));
  for (const path of byDepth([...rules.read, ...rules.write])) {
    const kind = kindOf(path);
    const write = writable.has(path);
    const linkInside = typeof kind === 'object' && (within(path, false) || within(path, true));
    if (kind === undefined || within(path, write) || linkInside) continue;
    if (typeof kind === 'object') args.push('--symlink', kind.link, path);
    else {
      args.push(write ? '--bind' : '--ro-bind', path, path);
      if (kind === 'dir') bound.set(path, write);
    }
  }
  args.push('--chdir', cwd, '--', ...argv);
  return args;
}
