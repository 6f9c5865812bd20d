/**
 * The preview of a location: its line, trimmed, and cut to a window around
 * the location so one minified line cannot flood the output.
 */

/** Longest preview in code points, ellipses not counted. */
export const PREVIEW_MAX_CHARS = 160;
/** How much of the line before the location a cut preview keeps. */
const PREVIEW_BEFORE_CHARS = 40;

/** `column` is the location's 1-based code-point column in `line`. */
export function previewOf(line: string, column: number): string {
  const trimmed = line.trim();
  // Most lines are short: no code-point split for them.
  if (trimmed.length <= PREVIEW_MAX_CHARS) return trimmed;
  const chars = [...trimmed];
  if (chars.length <= PREVIEW_MAX_CHARS) return trimmed;
  const lead = [...line].length - [...line.trimStart()].length;
  const at = Math.max(0, column - 1 - lead);
  const start = Math.max(0, Math.min(at - PREVIEW_BEFORE_CHARS, chars.length - PREVIEW_MAX_CHARS));
  const end = start + PREVIEW_MAX_CHARS;
  return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('')}${end < chars.length ? '…' : ''}`;
}
