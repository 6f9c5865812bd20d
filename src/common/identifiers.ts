/** What lspq takes as a name in code, in every language it knows: letters, digits, `_` and `$`, not starting with a digit. */

/** Every name on a line (global: use with matchAll). */
export const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** Whether a character can be part of a name. */
export const isIdentifierChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);

/** The name that holds a 1-based code-point column of a line (or ends just before it), if any. */
export function nameAtColumn(lineText: string, column: number): string | undefined {
  const chars = Array.from(lineText);
  let start = column - 1;
  let end = column - 1;
  while (start > 0 && isIdentifierChar(chars[start - 1])) start--;
  while (isIdentifierChar(chars[end])) end++;
  const name = chars.slice(start, end).join('');
  return /^[\p{L}_$]/u.test(name) ? name : undefined;
}
