/**
 * The daemon's life: take the lock, listen, answer, stop idle servers, exit
 * when idle, and on any way out stop every server it started.
 */
import { heldIndexRoots } from '../engine/index-files';
import { closeSync, existsSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExitCode } from '../common/errors';
import { recover } from '../engine/journal-recovery';
import { outgrown } from '../lsp/file-events';
import { SERVER_IDLE_MS, ServerPool } from '../lsp/manager';
import { ensureSocketDir, socketPath, stateFile } from '../common/socket';
import { fileLogger } from './log';
import { releaseLock, takeLock } from './lock';
import { reapOrphans, recordServers } from './orphans';
import { listen } from './server';
import { Watchers } from './watch';
import { watchHolds } from './hold-watch';

export const DAEMON_IDLE_MS = 30 * 60_000;
/** How long a stopping daemon lets the questions under way finish before it cancels them. */
export const STOP_WAIT_MS = 3_000;
const HOUSEKEEPING_MS = 5_000;

function msFromSeconds(env: string | undefined, fallbackMs: number): number {
  const n = Number(env);
  return env !== undefined && Number.isFinite(n) && n > 0 ? n * 1000 : fallbackMs;
}

export async function runDaemon(): Promise<ExitCode> {
  const socket = resolve(socketPath(process.env));
  // Outlives the folder it was started from, which a user may delete: what it starts (an index's table, a
  // tool) would fail in a folder that is gone. Every path it is given is absolute.
  process.chdir('/');
  // Held open for the daemon's life: it binds its socket through this folder, the one it checked.
  const folder = ensureSocketDir(socket);
  const lock = stateFile(socket, 'daemon.lock');
  const log = fileLogger(stateFile(socket, 'daemon.log'));
  if (!takeLock(lock)) return 0; // another daemon won the race; the caller will talk to it
  // A rejection no handler caught is a fault of one question's, not a reason to end every client's daemon:
  // logged, and the question it belonged to fails or times out on its own invocation.
  process.on('unhandledRejection', (reason) => {
    const what = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    log(`a rejection no handler caught (the daemon goes on): ${what}`);
  });
  reapOrphans(stateFile(socket, 'servers.json'), log);
  // Edits a killed daemon left half-written: finished or taken back before anything else is asked.
  const journalDir = stateFile(socket, 'journal');
  recover(journalDir, log);
  if (existsSync(socket)) unlinkSync(socket); // ours by the lock: a leftover of a dead daemon

  const idleMs = msFromSeconds(process.env.LSPQ_DAEMON_IDLE_SECONDS, DAEMON_IDLE_MS);
  const maxServers = Number(process.env.LSPQ_MAX_SERVERS);
  const memoryMb = Number(process.env.LSPQ_MEMORY_LIMIT_MB);
  const watchers = new Watchers(log);
  const pool = new ServerPool({
    idleMs: msFromSeconds(process.env.LSPQ_SERVER_IDLE_SECONDS, SERVER_IDLE_MS),
    ...(Number.isSafeInteger(maxServers) && maxServers > 0 ? { maxServers } : {}),
    ...(Number.isFinite(memoryMb) && memoryMb > 0 ? { memoryLimit: Math.round(memoryMb * 1_048_576) } : {}),
    log,
    beforeStart: (root) => watchers.watch(root),
    renewIf: (session) => outgrown(session, watchers),
  });
  let stopping = false;
  let lastActivity = Date.now();

  /**
   * Stops without leaving a command waiting on a daemon that is going: the
   * socket goes first (a new command starts a new daemon, which takes the
   * lock once this one lets go of it), the questions under way get a
   * moment to finish, then every server is stopped, each within its grace.
   */
  const stop = async (why: string): Promise<never> => {
    if (stopping) return new Promise<never>(() => {});
    stopping = true;
    log(`stopping: ${why}`);
    try {
      unlinkSync(socket);
    } catch {}
    server.close();
    const end = Date.now() + STOP_WAIT_MS;
    while (server.inFlight > 0 && Date.now() < end) await Bun.sleep(20);
    if (server.inFlight > 0) {
      log(`${server.inFlight} question(s) still under way after ${STOP_WAIT_MS / 1000}s: cancelled`);
      server.cancelAll();
    }
    watchers.close();
    await pool.shutdownAll();
    recordServers(stateFile(socket, 'servers.json'), []);
    releaseLock(lock);
    log('stopped');
    process.exit(0);
  };

  const server = listen({
    socket,
    bindAt: folder.via,
    pool,
    watchers,
    journalDir,
    log,
    startedAt: Date.now(),
    onActivity: () => {
      lastActivity = Date.now();
    },
    onServersChanged: () => {
      recordServers(stateFile(socket, 'servers.json'), pool.list());
      void pool.enforceMemoryLimit();
    },
    stop: () => void stop('asked to stop'),
  });
  writeFileSync(stateFile(socket, 'daemon.pid'), String(process.pid), { mode: 0o600 });
  log(`listening on ${socket} (pid ${process.pid})`);
  watchHolds(process.env, log);
  // The command that started this daemon waits on a pipe for this word, not on a poll of the socket.
  try {
    writeSync(1, 'ready\n');
    closeSync(1);
  } catch {}

  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => void stop(sig));
  const housekeeping = setInterval(
    () => {
      recordServers(stateFile(socket, 'servers.json'), pool.list());
      // The roots of the indexes held stay watched too: what changed under them since is told by the watch.
      watchers.prune(new Set([...pool.roots(), ...heldIndexRoots()]));
      void pool.enforceMemoryLimit();
      // A daemon that lost its lock (a racing start took over a stale one) steps aside.
      let holder = '';
      try {
        holder = readFileSync(lock, 'utf8').trim();
      } catch {}
      if (holder !== String(process.pid)) void stop('lock taken by another daemon');
      else if (server.inFlight === 0 && Date.now() - lastActivity >= idleMs) void stop('idle');
    },
    Math.min(HOUSEKEEPING_MS, idleMs),
  );
  housekeeping.unref?.();
  await new Promise<never>(() => {});
  return 0;
}
