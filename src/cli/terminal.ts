/**
 * What the command knows of its own process: its environment and whether
 * its output is a terminal. Small on purpose: the warm question's path
 * (main.ts) loads it.
 */

interface TtyBinding {
  isTTY?: (fd: number) => boolean;
}

/**
 * Whether a file descriptor is a terminal. Bun's tty_wrap binding is
 * isatty(3) itself and costs microseconds; loading node:tty cost about 3 ms.
 */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    // process.binding is the runtime's own, left out of its public types.
    const binding = (process as unknown as { binding?: (name: string) => TtyBinding }).binding?.('tty_wrap');
    if (typeof binding?.isTTY === 'function') return binding.isTTY(fd);
  } catch {
    // not in this runtime: ask node:tty
  }
  return (require('node:tty') as typeof import('node:tty')).isatty(fd);
}

/** Colour on a terminal only, and never with NO_COLOR set. */
export function wantsColor(env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTerminal(1);
}
