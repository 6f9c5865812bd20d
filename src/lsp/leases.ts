/**
 * Who may change what a server sees. Most questions only bring the
 * server's documents up to date with the disk and ask: they share the
 * server. A question that shows the server something that is not the disk
 * (diag --staged hands it the index's text) or changes the files under it
 * (an applied edit, a command the server runs against the workspace) holds
 * it alone, so no other question is answered from that state, and it puts
 * the disk's text back before it lets go.
 *
 * Deadlock-free by construction: a question takes shared leases one server
 * at a time and keeps them to its end; an exclusive lease is taken for all
 * of a question's servers at once, after giving up its shared ones, and
 * never while holding anything. A waiting exclusive question holds back new
 * questions (so a stream of readers cannot starve it), but not a question
 * that already holds a lease somewhere, which must be able to finish.
 */
import { LspqError } from '../common/errors';

export class SessionLock {
  readers = 0;
  writer = false;
  /** Exclusive questions waiting for this server. */
  waitingWriters = 0;
  private readonly wakers = new Set<() => void>();

  get free(): boolean {
    return this.readers === 0 && !this.writer;
  }

  /** Calls `wake` whenever a lease on this server is given up; returns how to stop. */
  watch(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }

  released(): void {
    for (const wake of [...this.wakers]) wake();
  }
}

/** What a lease is taken on: anything with a lock (a session of the pool). */
export interface Lockable {
  lock: SessionLock;
}

export interface LeaseWait {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Named in the error when the wait runs out. */
  what: string;
}

/** The leases one question holds, given back together when it ends. */
export class Leases<S extends Lockable = Lockable> {
  private readonly held = new Map<S, 'shared' | 'exclusive'>();

  holds(session: S): boolean {
    return this.held.has(session);
  }

  /** A shared lease on `session` (nothing if this question holds one already). */
  async share(session: S, wait: LeaseWait): Promise<void> {
    if (this.held.has(session)) return;
    const lock = session.lock;
    // Holding a lease elsewhere, this question goes ahead of waiting writers: they may be waiting for it.
    const yieldsToWriters = this.held.size === 0;
    const take = () => {
      if (lock.writer || (yieldsToWriters && lock.waitingWriters > 0)) return false;
      lock.readers++;
      return true;
    };
    await until((wake) => lock.watch(wake), take, wait);
    this.held.set(session, 'shared');
  }

  /**
   * Every one of `sessions` to this question alone, and those it holds
   * alone already (a chain's next patch, another build's server: all of
   * them stay its own until the edit is written). Its other leases are
   * given up first, so it never waits while holding one; the caller brings
   * the servers up to date again once this returns.
   */
  async exclusive(sessions: S[], wait: LeaseWait): Promise<void> {
    const alone = [...this.held].flatMap(([s, mode]) => (mode === 'exclusive' ? [s] : []));
    const wanted = [...new Set([...sessions, ...alone])];
    if (wanted.length > 0 && wanted.every((s) => this.held.get(s) === 'exclusive')) return;
    this.releaseAll();
    const take = () => {
      if (!wanted.every((s) => s.lock.free)) return false;
      for (const s of wanted) s.lock.writer = true;
      return true;
    };
    const watchAll = (wake: () => void) => {
      const stops = wanted.map((s) => s.lock.watch(wake));
      return () => {
        for (const stop of stops) stop();
      };
    };
    for (const s of wanted) s.lock.waitingWriters++;
    try {
      await until(watchAll, take, wait);
    } finally {
      for (const s of wanted) {
        s.lock.waitingWriters--;
        // Readers held back for this writer may go now (it got its lease, or gave up waiting).
        s.lock.released();
      }
    }
    for (const s of wanted) this.held.set(s, 'exclusive');
  }

  releaseAll(): void {
    const locks = [...this.held].map(([session, mode]) => {
      if (mode === 'exclusive') session.lock.writer = false;
      else session.lock.readers--;
      return session.lock;
    });
    this.held.clear();
    for (const lock of locks) lock.released();
  }
}

/**
 * Resolves once `take()` succeeds: it checks and takes the lease in one
 * synchronous step, so two waiters woken by one release cannot both take it.
 * Re-tried whenever a watched lock is released; rejects at the deadline or
 * on abort.
 */
function until(watch: (wake: () => void) => () => void, take: () => boolean, wait: LeaseWait): Promise<void> {
  if (take()) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const done = (err?: LspqError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop();
      wait.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    };
    const stop = watch(() => {
      if (!settled && take()) done();
    });
    const onAbort = () => done(new LspqError('timeout', 'cancelled'));
    const timer = setTimeout(
      () =>
        done(
          new LspqError(
            'timeout',
            `${wait.what} was busy with another question (diag --staged or an edit) past the --timeout; retry`,
          ),
        ),
      wait.timeoutMs,
    );
    wait.signal?.addEventListener('abort', onAbort);
  });
}
