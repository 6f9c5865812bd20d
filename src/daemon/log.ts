/** The daemon's log: one file beside the socket, rotated at a size so it never grows without bound. */
import { appendFileSync, renameSync, statSync } from 'node:fs';

export const LOG_MAX_BYTES = 1_000_000;

export function fileLogger(path: string): (line: string) => void {
  let written = 0;
  try {
    written = statSync(path).size;
  } catch {}
  return (line: string) => {
    const entry = `${new Date().toISOString()} ${line}\n`;
    try {
      if (written + entry.length > LOG_MAX_BYTES) {
        renameSync(path, `${path}.1`);
        written = 0;
      }
      appendFileSync(path, entry, { mode: 0o600 });
      written += entry.length;
    } catch {
      // Logging must never take the daemon down.
    }
  };
}
