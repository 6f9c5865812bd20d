/**
 * LSPQ_WATCH_HOLDS=MS: the daemon logs each time its one thread was held
 * longer than MS (a turn of the event loop that long), so a benchmark or a
 * maintainer sees which work keeps other questions waiting. Off unless set:
 * the watch wakes every 2 ms.
 */

/** How often the watch looks at the clock. */
const TICK_MS = 2;

export function watchHolds(env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  const over = Number(env.LSPQ_WATCH_HOLDS);
  if (!Number.isFinite(over) || over <= 0) return;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last - TICK_MS > over) log(`held the thread ${(now - last).toFixed(1)} ms`);
    last = now;
  }, TICK_MS).unref();
}
