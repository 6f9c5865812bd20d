/**
 * Colour on a terminal only, and never with NO_COLOR set. picocolors is
 * loaded only when colour is on: loading it reads process.stdout, which
 * costs milliseconds in a compiled binary, on every piped command.
 */
import type { Colors as Palette } from 'picocolors/types';

export type Colors = Palette;

export interface RenderOptions {
  cwd: string;
  colors: Colors;
}

const plain = (s: string | number | null | undefined) => String(s);

/** Every colour function as the identity, for output that is not a terminal. */
// The Proxy answers every key itself (get below): the empty target is never read.
const NO_COLORS = new Proxy({} as Colors, {
  get: (_target, key) => (key === 'isColorSupported' ? false : plain),
});

export function renderOptions(cwd: string, color: boolean): RenderOptions {
  const colors = color ? (require('picocolors') as typeof import('picocolors')).createColors(true) : NO_COLORS;
  return { cwd, colors };
}

/** `path:line:col:` in the grep/compiler convention, coloured like ripgrep. */
export function locationPrefix(o: RenderOptions, path: string, line: number, column: number): string {
  const c = o.colors;
  return `${c.magenta(path)}:${c.green(String(line))}:${c.green(String(column))}:`;
}

/** The last line of an answer cut at --limit, on stdout as on stderr: tools that drop stderr still see it. */
export function cutLine(shown: number, total: number): string {
  return `${shown} of ${total} shown: --limit 0 for all`;
}

/** `1 file`, `2 files`. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
