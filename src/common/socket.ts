/**
 * Where the daemon listens, and the rules for its folder: mode 0700 and
 * owned by the user, or lspq refuses to use it (someone else could answer
 * in the daemon's place or read the questions).
 *
 * node:fs is required inside the functions that need it: loading it cost
 * about 1 ms, and a warm question checks the folder with Bun.file instead.
 */
import { dirnameOf as dirname, joinPath as join } from './paths';
import { LspqError, messageOf } from './errors';

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

/** Creates the socket's folder (0700) or checks an existing one: before starting a daemon. */
export function ensureSocketDir(socket: string): void {
  const { mkdirSync, statSync } = require('node:fs') as typeof import('node:fs');
  const dir = dirname(socket);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new LspqError(
      'daemon',
      `cannot create the daemon folder ${dir}: ${messageOf(err)}; set LSPQ_SOCKET to a path in a folder you own`,
    );
  }
  checkSocketDir(dir, statSync(dir));
}

/**
 * Checks the socket's folder before a question is sent to whoever listens
 * there. False when the folder does not exist (no daemon yet).
 */
export async function socketDirSafe(socket: string): Promise<boolean> {
  const dir = dirname(socket);
  let st: { uid: number; mode: number };
  try {
    st = await Bun.file(dir).stat();
  } catch {
    return false;
  }
  checkSocketDir(dir, st);
  return true;
}
