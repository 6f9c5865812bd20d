/**
 * Hints on a miss that are targets: after a name that is not on its line
 * (or only in a comment there) or a column on no name, the nearest
 * identifiers around it, closest first, each written as a target that
 * resolves if fed back. Pure.
 */
import { IDENTIFIER, isIdentifierChar } from '../common/identifiers';
import { KEYWORDS } from '../lsp/servers/languages';
import { editDistance } from '../common/nearest';
import { type Kind, LONG_LINE, linesKinds, type Syntax } from '../lsp/lexical';

/** How many ready targets a miss offers. */
export const MAX_HINTS = 5;

/** Strings and a trailing // comment blanked out (same length), so words in them are not offered as names. */
function codeOnly(line: string): string {
  const blank = (m: string) => ' '.repeat(m.length);
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, blank).replace(/\/\/.*$/, blank);
}

/**
 * Lines `from` to `to` (1-based) with their comments and strings blanked
 * out (same length), by the file's syntax where lspq knows it.
 */
function codeLines(lines: readonly string[], from: number, to: number, syntax: Syntax | undefined): string[] {
  // A long line (minified, generated) offers no names: reading them all cost minutes for an 8 MB one.
  const span = lines.slice(from - 1, to).map((l) => (l.length > LONG_LINE ? '' : l));
  if (!syntax) return span.map(codeOnly);
  const kinds = linesKinds(lines.slice(0, to).join('\n'), from - 1, to - 1, syntax);
  return span.map((text, k) => {
    const marks: Kind[] = kinds[k] ?? [];
    let out = '';
    for (let i = 0; i < text.length; i++) out += (marks[i] ?? 'code') === 'code' ? text[i] : ' ';
    return out;
  });
}

export interface Word {
  text: string;
  line: number;
  /** 1-based code-point column. */
  column: number;
}

/**
 * The identifiers of code on lines `line - reach` to `line + reach`
 * (1-based), the first of each name per line; none shorter than
 * `shortest` (no one-letter names, as hints go).
 */
export function identifiersNear(
  lines: readonly string[],
  line: number,
  reach = 2,
  syntax?: Syntax,
  shortest = 2,
): Word[] {
  const out: Word[] = [];
  const from = Math.max(1, line - reach);
  const code = codeLines(lines, from, Math.min(lines.length, line + reach), syntax);
  for (let n = from; n <= Math.min(lines.length, line + reach); n++) {
    const text = lines[n - 1] ?? '';
    const seen = new Set<string>();
    for (const m of (code[n - from] ?? '').matchAll(IDENTIFIER)) {
      if (KEYWORDS.has(m[0]) || seen.has(m[0]) || Array.from(m[0]).length < shortest) continue;
      seen.add(m[0]);
      out.push({ text: m[0], line: n, column: Array.from(text.slice(0, m.index)).length + 1 });
    }
  }
  return out;
}

/** The names a line holds in code, the first of each, keywords and a bare `_` left out: what `FILE:LINE` may mean. */
export function namesOnLine(lines: readonly string[], line: number, syntax?: Syntax): Word[] {
  return identifiersNear(lines, line, 0, syntax, 1).filter((w) => !/^[_$]+$/.test(w.text));
}

export { editDistance };

/** How far an agent's line number may be from where NAME is now (a file edited since it read it). */
export const NAME_REACH = 60;

/**
 * Near NAME: NAME itself on the nearest lines that hold it in code (a line
 * number from before an edit), then names that contain it or start with
 * it (after a rename of `die` to `dieHard`), then by edit distance; ties
 * by distance in lines.
 */
export function nearestToName(lines: readonly string[], name: string, line: number, syntax?: Syntax): Word[] {
  const holding: Word[] = [];
  const from = Math.max(1, line - NAME_REACH);
  const code = codeLines(lines, from, Math.min(lines.length, line + NAME_REACH), syntax);
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegExp(name)}(?![\\p{L}\\p{N}_$])`, 'u');
  for (let d = 1; d <= NAME_REACH && holding.length < MAX_HINTS; d++) {
    for (const n of [line - d, line + d]) {
      if (n < 1 || n > lines.length) continue;
      const at = (code[n - from] ?? '').search(word);
      if (at >= 0)
        holding.push({ text: name, line: n, column: Array.from((lines[n - 1] ?? '').slice(0, at)).length + 1 });
    }
  }
  const lower = name.toLowerCase();
  const rank = (w: Word) => (w.text.toLowerCase().startsWith(lower) ? 0 : w.text.toLowerCase().includes(lower) ? 1 : 2);
  const others = identifiersNear(lines, line, 2, syntax)
    .filter((w) => w.text !== name)
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        editDistance(a.text, name) - editDistance(b.text, name) ||
        Math.abs(a.line - line) - Math.abs(b.line - line),
    );
  return [...holding, ...others].slice(0, MAX_HINTS);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

/**
 * A column that points at no name: on whitespace, punctuation or past the
 * line's end, with no name ending just before it, where servers answer
 * nothing (or fail: gopls's "no identifier found").
 */
export function onNoName(lineText: string, column: number): boolean {
  const chars = Array.from(lineText);
  return !isIdentifierChar(chars[column - 1]) && !isIdentifierChar(chars[column - 2]);
}
