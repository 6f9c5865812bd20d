/**
 * What citty needs of consola (a log line, an error line, colours for its
 * usage text), so the compiled binary does not load all of consola on every
 * command: that alone cost about 4 ms of a 5 ms start. Bundled in place of
 * consola for citty's imports only (scripts/build.ts).
 */
import pc from 'picocolors';

export const colors = pc;

const consola = {
  log: (...args: unknown[]) => console.log(...args),
  error: (...args: unknown[]) => console.error(...args),
};

export default consola;
