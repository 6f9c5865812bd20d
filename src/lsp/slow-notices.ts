/**
 * A slow request, for a person waiting at a terminal: after a second, and
 * each second on, the server's own progress where it reports some, else
 * the request it has not answered yet.
 */
import type { ServerState } from './server-state';

export const SLOW_NOTICE_MS = 1_000;

export function slowNotices(
  id: string,
  state: ServerState,
  method: string,
  progress: ((text: string) => void) | undefined,
): ReturnType<typeof setInterval> | undefined {
  if (!progress) return undefined;
  const started = Date.now();
  return setInterval(() => {
    const waited = Math.round((Date.now() - started) / 1000);
    const what = state.progressTitles.join(', ');
    progress(`${id}: ${what || `waiting for ${method}`} (${waited}s)`);
  }, SLOW_NOTICE_MS);
}
