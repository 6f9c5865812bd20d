/**
 * The daemon's log: one file beside the socket, rotated at a size so it
 * never grows without bound. The file stays open: every answer logs a line,
 * and opening the file for each one was a syscall round more per question.
 */
import { closeSync, openSync, renameSync, statSync, writeSync } from 'node:fs';

export const LOG_MAX_BYTES = 1_000_000;

export function fileLogger(path: string, maxBytes = LOG_MAX_BYTES): (line: string) => void {
  let written = 0;
  try {
    written = statSync(path).size;
  } catch {}
  let fd: number | undefined;
  return (line: string) => {
    const entry = `${new Date().toISOString()} ${line}\n`;
    try {
      if (written + entry.length > maxBytes) {
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
        renameSync(path, `${path}.1`);
        written = 0;
      }
      fd ??= openSync(path, 'a', 0o600);
      writeSync(fd, entry);
      written += entry.length;
    } catch {
      // Logging must never take the daemon down.
    }
  };
}
