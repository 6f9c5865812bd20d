/** What lspq takes as a name in code, in every language it knows: letters, digits, `_` and `$`, not starting with a digit. */

/** Every name on a line (global: use with matchAll). */
export const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** Whether a character can be part of a name. */
export const isIdentifierChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
