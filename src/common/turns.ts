/**
 * Turns of the event loop for work whose size grows with the project: the
 * daemon answers every client on one thread, so a loop over thousands of
 * files lets the others' questions run between slices of it.
 */

/** Lets other work run before going on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A turn at every `n`-th call, and nothing to wait for between. */
export function turnEvery(n: number): () => Promise<void> | undefined {
  let count = 0;
  return () => (++count % n === 0 ? nextTurn() : undefined);
}
