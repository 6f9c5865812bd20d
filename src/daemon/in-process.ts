/**
 * --no-daemon: the same handlers, a pool that lives for one question, and
 * every server stopped before the command exits, even on Ctrl-C.
 */
import { ServerPool } from '../lsp/manager';
import type { QueryRequest } from '../protocol/messages';
import { dispatch } from './dispatch';

export async function answerHere(request: QueryRequest, onProgress?: (p: { done: number; total: number; what: string }) => void): Promise<unknown> {
  const pool = new ServerPool({ log: process.env.LSPQ_DEBUG ? (l) => console.error(`lspq: ${l}`) : undefined });
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    abort.abort();
    void pool.shutdownAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await dispatch(request, { pool, signal: abort.signal, log: () => {}, progress: (done, total, what) => onProgress?.({ done, total, what }) });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool.shutdownAll();
  }
}
