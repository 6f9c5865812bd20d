/**
 * Where the daemon listens, and the rules for its folder: a folder, not a
 * link to one, mode 0700 and owned by the user, or lspq refuses to use it
 * (someone else could answer in the daemon's place or read the questions).
 *
 * The folder is opened once (O_NOFOLLOW) and judged on that descriptor, and
 * the socket is reached through the descriptor (`/proc/self/fd/N/daemon.sock`
 * on Linux), never by resolving the folder's path again: checked by path
 * and connected by path, a folder another user could swap between the two
 * received a question with its caller's environment.
 *
 * node:fs is required inside the functions that need it: loading it at the
 * binary's start cost about 1 ms.
 */
import { dirnameOf as dirname, joinPath as join } from './paths';
import { errnoOf, LspqError, messageOf } from './errors';

export function socketPath(env: Record<string, string | undefined>): string {
  if (env.LSPQ_SOCKET) return env.LSPQ_SOCKET;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'lspq', 'daemon.sock');
  return join('/tmp', `lspq-${process.getuid?.() ?? 0}`, 'daemon.sock');
}

/** The daemon's files live beside its socket. */
export function stateFile(socket: string, name: string): string {
  // Named after the socket (daemon.sock: daemon.lock): two sockets in one folder are two daemons.
  const stem = socket.slice(socket.lastIndexOf('/') + 1).replace(/\.sock$/, '');
  return join(dirname(socket), `${stem}.${name.replace(/^daemon\./, '')}`);
}

/** The folder rules, on a stat of the folder; throws the one-line refusal. */
export function checkSocketDir(dir: string, st: { uid: number; mode: number }, uid = process.getuid?.()): void {
  if (uid !== undefined && st.uid !== uid) {
    throw new LspqError(
      'daemon',
      `refusing the daemon folder ${dir}: it is owned by uid ${st.uid}, not you (${uid}); remove it or set LSPQ_SOCKET`,
    );
  }
  if ((st.mode & 0o077) !== 0) {
    throw new LspqError(
      'daemon',
      `refusing the daemon folder ${dir}: it is open to group or others (mode ${(st.mode & 0o777).toString(8)}); run 'chmod 700 ${dir}' or set LSPQ_SOCKET`,
    );
  }
}

/** The socket's folder, open: the path that reaches the socket through it, and the descriptor to close when done. */
export interface SocketDir {
  fd: number;
  /** `/proc/self/fd/N/daemon.sock` on Linux: the folder that was checked, whatever its path names now. */
  via: string;
  close(): void;
}

/**
 * Opens the socket's folder once, without following a link, and checks it
 * on the descriptor (owner, mode, a folder); undefined when it does not
 * exist (no daemon yet). Throws the one-line refusal for a link or an
 * unsafe folder.
 */
export function openSocketDir(socket: string): SocketDir | undefined {
  const { closeSync, constants, fstatSync, lstatSync, openSync } = require('node:fs') as typeof import('node:fs');
  const dir = dirname(socket);
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT') return undefined;
    // A link (ELOOP, or ENOTDIR beside O_DIRECTORY): whoever can write its parent could point it elsewhere next time.
    const link =
      (code === 'ELOOP' || code === 'ENOTDIR') && lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink();
    const why = link
      ? 'it is a symbolic link, not a folder'
      : code === 'ENOTDIR'
        ? 'it is not a folder'
        : messageOf(err);
    throw new LspqError('daemon', `refusing the daemon folder ${dir}: ${why}; remove it or set LSPQ_SOCKET`);
  }
  try {
    checkSocketDir(dir, fstatSync(fd));
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const name = socket.slice(socket.lastIndexOf('/') + 1);
  // Linux's /proc/self/fd/N is the open folder itself; elsewhere the path, checked just above (docs/daemon.md).
  const via = process.platform === 'linux' ? `/proc/self/fd/${fd}/${name}` : socket;
  return { fd, via, close: () => closeSync(fd) };
}

/** Creates the socket's folder (0700) or checks an existing one, opened as openSocketDir opens it: before starting a daemon. */
export function ensureSocketDir(socket: string): SocketDir {
  const { mkdirSync } = require('node:fs') as typeof import('node:fs');
  const dir = dirname(socket);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new LspqError(
      'daemon',
      `cannot create the daemon folder ${dir}: ${messageOf(err)}; set LSPQ_SOCKET to a path in a folder you own`,
    );
  }
  const opened = openSocketDir(socket);
  if (!opened)
    throw new LspqError('daemon', `the daemon folder ${dir} went away as it was made; run the command again`);
  return opened;
}
