/**
 * What citty needs of consola (a log line, an error line, colours for its
 * usage text), so the compiled binary does not load all of consola on every
 * command: that alone cost about 4 ms of a 5 ms start. Bundled in place of
 * consola for citty's imports only (scripts/build.ts). picocolors loads when
 * usage is actually rendered (it reads process.stdout, which is slow).
 */
const pc = () => require('picocolors') as typeof import('picocolors');

export const colors = {
  bold: (s: string) => pc().bold(s),
  gray: (s: string) => pc().gray(s),
  underline: (s: string) => pc().underline(s),
};

const consola = {
  log: (...args: unknown[]) => console.log(...args),
  error: (...args: unknown[]) => console.error(...args),
};

export default consola;
