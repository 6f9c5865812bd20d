/** Colour on a terminal only, and never with NO_COLOR set. */
import { createColors } from 'picocolors';

export type Colors = ReturnType<typeof createColors>;

export interface RenderOptions {
  cwd: string;
  colors: Colors;
}

export function renderOptions(cwd: string, color: boolean): RenderOptions {
  return { cwd, colors: createColors(color) };
}

/** `path:line:col:` in the grep/compiler convention, coloured like ripgrep. */
export function locationPrefix(o: RenderOptions, path: string, line: number, column: number): string {
  const c = o.colors;
  return `${c.magenta(path)}:${c.green(String(line))}:${c.green(String(column))}:`;
}

export function truncationNote(shown: number, total: number, what: string): string {
  return `${total - shown} more ${what} not shown (${total} in all); raise --limit to see them`;
}
