/**
 * Where the daemon listens, and the rules for its folder: mode 0700 and
 * owned by the user, or lspq refuses to use it (someone else could answer
 * in the daemon's place or read the questions).
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirnameOf as dirname, joinPath as join } from './paths';
import { LspqError } from '../errors';

export function socketPath(env: Record<string, string | undefined>): string {
  if (env.LSPQ_SOCKET) return env.LSPQ_SOCKET;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'lspq', 'daemon.sock');
  return join('/tmp', `lspq-${process.getuid?.() ?? 0}`, 'daemon.sock');
}

/** The daemon's files live beside its socket. */
export function stateFile(socket: string, name: string): string {
  return join(dirname(socket), name);
}

/** Creates the socket's folder (0700) or checks an existing one; throws a one-line refusal. */
export function ensureSocketDir(socket: string): void {
  const dir = dirname(socket);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new LspqError('daemon', `cannot create the daemon folder ${dir}: ${(err as Error).message}; set LSPQ_SOCKET to a path in a folder you own`);
  }
  const st = statSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new LspqError('daemon', `refusing the daemon folder ${dir}: it is owned by uid ${st.uid}, not you (${uid}); remove it or set LSPQ_SOCKET`);
  }
  if ((st.mode & 0o077) !== 0) {
    throw new LspqError('daemon', `refusing the daemon folder ${dir}: it is open to group or others (mode ${(st.mode & 0o777).toString(8)}); run 'chmod 700 ${dir}' or set LSPQ_SOCKET`);
  }
}
