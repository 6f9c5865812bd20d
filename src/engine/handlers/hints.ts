/**
 * Hints on a miss that are targets: after a name that is not on its line
 * or a column on whitespace, the nearest identifiers around it, closest
 * first, each written as a target that resolves if fed back. Pure.
 */

/** How many ready targets a miss offers. */
export const MAX_HINTS = 5;

/** Words of code that are never what a question is about. */
const KEYWORDS = new Set(
  (
    'if else for while do return func function def class struct interface type const let var import from package ' +
    'export default new this self true false null nil None True False in of is not and or static public private ' +
    'protected void int char double float long short unsigned bool string async await try catch finally throw ' +
    'raise with as pass break continue switch case go defer range map chan select fn pub use mod impl mut match'
  ).split(' '),
);

const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** Strings and a trailing // comment blanked out (same length), so words in them are not offered as names. */
function codeOnly(line: string): string {
  const blank = (m: string) => ' '.repeat(m.length);
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, blank).replace(/\/\/.*$/, blank);
}

export interface Word {
  text: string;
  line: number;
  /** 1-based code-point column. */
  column: number;
}

/** The identifiers on lines `line - reach` to `line + reach` (1-based), the first of each name per line. */
export function identifiersNear(lines: readonly string[], line: number, reach = 2): Word[] {
  const out: Word[] = [];
  for (let n = Math.max(1, line - reach); n <= Math.min(lines.length, line + reach); n++) {
    const text = lines[n - 1] ?? '';
    const seen = new Set<string>();
    for (const m of codeOnly(text).matchAll(IDENTIFIER)) {
      if (KEYWORDS.has(m[0]) || seen.has(m[0])) continue;
      seen.add(m[0]);
      out.push({ text: m[0], line: n, column: Array.from(text.slice(0, m.index)).length + 1 });
    }
  }
  return out;
}

/** Levenshtein distance, case-insensitive unless asked. */
export function editDistance(a: string, b: string, ignoreCase = true): number {
  const x = ignoreCase ? a.toLowerCase() : a;
  const y = ignoreCase ? b.toLowerCase() : b;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/** Near NAME: by edit distance, then distance in lines. */
export function nearestToName(words: Word[], name: string, line: number): Word[] {
  return [...words]
    .sort(
      (a, b) =>
        editDistance(a.text, name) - editDistance(b.text, name) || Math.abs(a.line - line) - Math.abs(b.line - line),
    )
    .slice(0, MAX_HINTS);
}

/** Near a position: by distance in lines, then in columns. */
export function nearestToPlace(words: Word[], line: number, column: number): Word[] {
  return [...words]
    .sort(
      (a, b) =>
        Math.abs(a.line - line) - Math.abs(b.line - line) || Math.abs(a.column - column) - Math.abs(b.column - column),
    )
    .slice(0, MAX_HINTS);
}

/** A hint list as the one-line error ends it. */
export function offer(candidates: string[]): string {
  return candidates.length ? `; nearest: ${candidates.join(', ')}` : '';
}

const isIdentifierChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);

/**
 * A column that points at no name: on whitespace (or past the line's end)
 * with no name ending just before it, where servers answer nothing.
 */
export function onWhitespace(lineText: string, column: number): boolean {
  const chars = Array.from(lineText);
  const at = chars[column - 1];
  return (at === undefined || /\s/u.test(at)) && !isIdentifierChar(chars[column - 2]);
}
