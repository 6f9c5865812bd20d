/** What `lspq daemon status` shows, and what the daemon's listener is given. */
import { BUILD } from '../common/build-info';
import type { ServerPool } from '../lsp/manager';
import type { DaemonStatus } from '../common/messages';
import type { Watchers } from './watch';

export interface ListenOptions {
  socket: string;
  /** Where to bind it: through the socket folder opened and checked at start (openSocketDir), not its path again. */
  bindAt?: string;
  pool: ServerPool;
  watchers: Watchers;
  /** Where edits are journaled: asked after by a command whose daemon died under its edit. */
  journalDir: string;
  log: (line: string) => void;
  startedAt: number;
  onActivity: () => void;
  onServersChanged: () => void;
  stop: () => void;
}

export function status(o: ListenOptions): DaemonStatus {
  const now = Date.now();
  const memory = o.pool.memory();
  return {
    pid: process.pid,
    build: BUILD.id,
    socket: o.socket,
    uptimeSeconds: Math.round((now - o.startedAt) / 1000),
    memoryBytes: process.memoryUsage().rss,
    heapBytes: process.memoryUsage().heapUsed,
    servers: o.pool.list().map((s) => ({
      id: s.client.spec.id,
      root: s.client.root,
      binary: s.binary,
      env: s.envKey,
      pid: s.client.pid,
      uptimeSeconds: Math.round((now - s.client.startedAt) / 1000),
      memoryBytes: memory.each.get(s.key) ?? null,
      requests: s.client.requestsAnswered,
      state:
        s.inFlight > 0
          ? 'busy'
          : s.client.state.busy
            ? `loading (${s.client.state.progressTitles.join(', ')})`
            : 'idle',
      ...(s.extra ? { extra: true } : {}),
    })),
    broken: o.pool.brokenList(),
    serversMemoryBytes: memory.total,
    memoryLimitBytes: memory.limit,
  };
}
