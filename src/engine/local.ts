/**
 * The engine in the command's own process (--no-daemon): the same
 * handlers, a pool that lives for one command, and every server stopped
 * before the command exits, even on Ctrl-C.
 */
import { ServerPool } from '../lsp/manager';
import { socketPath, stateFile } from '../common/socket';
import { type Answerers, dispatch, type Question, type Table } from './dispatch';
import { recover } from './journal-recovery';

export interface LocalEngine<T extends Table<T>> {
  answer<O extends keyof T & string>(request: Question<T, O>): Promise<T[O]['answer']>;
  close(): Promise<void>;
}

export function localEngine<T extends Table<T>>(options: {
  answerers: Answerers<T>;
  progress?: (text: string) => void;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}): LocalEngine<T> {
  const pool = new ServerPool({ log: options.log });
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    abort.abort();
    void pool.shutdownAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const log = options.log ?? (() => {});
  // Beside the daemon's: an edit another process left half-written (its writer gone) is settled first.
  const journalDir = stateFile(socketPath(process.env), 'journal');
  recover(journalDir, log);
  const context = { pool, signal: abort.signal, log, progress: options.progress, journalDir, warn: options.warn };
  return {
    answer: (request) => dispatch(request, context, options.answerers),
    close: async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await pool.shutdownAll();
    },
  };
}
