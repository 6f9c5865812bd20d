/**
 * Which characters of a file are code, and which are in a comment, a
 * string or a markup's text, by the lexical rules of its language: enough
 * to tell a target on a word of a comment ("a word in a comment is no
 * identifier", exit 2 with the nearest names) from one on code, the same
 * for every server. Pure.
 *
 * Not a parser: comments and string literals only, with the escapes, raw
 * strings, JavaScript's `${...}` and Python's f-string `{...}` (code inside
 * a string) that decide where they end; and templates, whose expressions
 * are code: Vue's directives and bindings (`:class="..."`, `v-if`, `@click`,
 * `{{ ... }}`), Svelte's braces (in text and inside an attribute's quotes),
 * JSX's elements with their `{...}`. A template's text and its plain
 * attribute values are not code.
 */
import { dropOldest } from '../common/bounded-cache';
import { C_LIKE, copyPoint as copy, HASH, type Kind, type Point, SCRIPT, type Syntax, startOf } from './lexical-frames';
import { LONG_LINE, scan } from './lexical-scan';

export { LONG_LINE };

export type { Kind, Markup, Syntax } from './lexical-frames';

const BY_EXTENSION: Record<string, Syntax> = {
  ...Object.fromEntries(['.ts', '.mts', '.cts', '.mjs', '.cjs'].map((e) => [e, SCRIPT])),
  // JSX: .tsx and .jsx, and .js as React projects write it (.ts has `<Type>value` casts instead).
  ...Object.fromEntries(['.tsx', '.jsx', '.js'].map((e) => [e, { ...SCRIPT, markup: 'jsx' } satisfies Syntax])),
  '.vue': { ...SCRIPT, markup: 'vue' },
  '.svelte': { ...SCRIPT, markup: 'svelte' },
  '.go': { ...C_LIKE, backtick: 'raw' },
  // A quote in Rust is also a lifetime ('a): only double quotes open strings.
  '.rs': { ...C_LIKE, quotes: ['"'] },
  ...Object.fromEntries(
    [
      '.c',
      '.h',
      '.cc',
      '.cpp',
      '.cxx',
      '.hpp',
      '.hh',
      '.hxx',
      '.m',
      '.mm',
      '.java',
      '.kt',
      '.kts',
      '.swift',
      '.cs',
      '.scala',
      '.dart',
      '.css',
      '.scss',
      '.less',
      '.php',
    ].map((e) => [e, C_LIKE]),
  ),
  '.zig': { ...C_LIKE, blockComments: [] },
  '.py': { ...HASH, python: true },
  '.pyi': { ...HASH, python: true },
  ...Object.fromEntries(['.sh', '.bash', '.zsh', '.rb', '.r', '.pl', '.tf', '.ex', '.exs'].map((e) => [e, HASH])),
  '.lua': { lineComments: ['--'], blockComments: [['--[[', ']]']], quotes: ['"', "'"] },
  '.html': { lineComments: [], blockComments: [['<!--', '-->']], quotes: [] },
  '.md': { lineComments: [], blockComments: [['<!--', '-->']], quotes: [] },
};

/** The syntax of a file by its extension; undefined where lspq knows none (data files: a JSON key is a string and a name). */
export function syntaxOf(path: string): Syntax | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[base.slice(dot)] : undefined;
}

/** A kind as a message says where a word is ("only in a comment"). */
export const KIND_WORDS: Record<Kind, string> = {
  code: 'code',
  comment: 'a comment',
  string: 'a string',
  text: "a template's text",
};

/** The line asked last: a target's line is asked once for each word on it that matches. */
let lastLine: { text: string; line: number; syntax: Syntax; kinds: Kind[] } | undefined;

/** The kind of each UTF-16 unit of line `line` (0-based) of `text`. */
export function lineKinds(text: string, line: number, syntax: Syntax): Kind[] {
  if (lastLine?.line === line && lastLine.syntax === syntax && lastLine.text === text) return lastLine.kinds;
  const kinds = linesKinds(text, line, line, syntax)[0] ?? [];
  lastLine = { text, line, syntax, kinds };
  return kinds;
}

/** The kind of each UTF-16 unit of every line of `text`, in one scan. */
export function fileKinds(text: string, syntax: Syntax): Kind[][] {
  return scan(text, startOf(syntax), 0, Infinity);
}

/** Lines between two remembered points of a file: a question scans at most this many lines before its own. */
const POINT_EVERY = 16;
/** Files whose points are remembered (a warm question asks about the same few files again and again). */
const POINTS_KEPT = 32;
/** A file's points found so far, and where the scan that found them stopped (none once it reached the end). */
const remembered = new Map<string, { syntax: Syntax; points: Point[]; next: Point | undefined }>();

/**
 * The point at the start of every POINT_EVERY-th line of `text` up to line
 * `upTo` at least, remembered for the text (a warm question about line
 * 1,800 of a file would otherwise scan the 1,800 lines before it, several
 * times over) and found as far as asked: a first question about line 40
 * scans 48 lines, not the file.
 */
function pointsOf(text: string, syntax: Syntax, upTo: number): Point[] {
  let known = remembered.get(text);
  if (known?.syntax === syntax) {
    remembered.delete(text);
    remembered.set(text, known);
  } else {
    known = { syntax, points: [], next: startOf(syntax) };
    remembered.set(text, known);
    if (remembered.size > POINTS_KEPT) dropOldest(remembered);
  }
  const { points } = known;
  if (known.next && points.length * POINT_EVERY <= upTo) {
    const end = (Math.floor(upTo / POINT_EVERY) + 1) * POINT_EVERY;
    let next: Point | undefined;
    // Kinds of no line are kept (from: Infinity); the scan stops at the end of line end - 1.
    scan(text, copy(known.next), Infinity, end - 1, (p) => {
      if (p.lineNo === points.length * POINT_EVERY) points.push(copy(p));
      if (p.lineNo === end) next = copy(p);
    });
    known.next = next;
  }
  return points;
}

/**
 * The kind of each UTF-16 unit of lines `from` to `to` (0-based) of
 * `text`, scanned from the nearest remembered point before `from` (a block
 * comment or a string may open on an earlier line).
 */
export function linesKinds(text: string, from: number, to: number, syntax: Syntax): Kind[][] {
  const points = pointsOf(text, syntax, from);
  const start = points[Math.min(points.length - 1, Math.floor(from / POINT_EVERY))];
  return scan(text, start ? copy(start) : startOf(syntax), from, to);
}

/** The kind of the character at 1-based code-point `column` of line `line` (1-based). */
export function kindAt(text: string, line: number, column: number, syntax: Syntax): Kind {
  const lineText = lineOf(text, line - 1, pointsOf(text, syntax, line - 1));
  if (lineText.length > LONG_LINE) return 'code'; // not scanned (LONG_LINE)
  const kinds = lineKinds(text, line - 1, syntax);
  const unit = Array.from(lineText)
    .slice(0, column - 1)
    .join('').length;
  return kinds[unit] ?? 'code';
}

/** Line `line` (0-based) of `text`, found from the nearest remembered point (not by splitting the whole file). */
function lineOf(text: string, line: number, points: Point[]): string {
  const start = points[Math.min(points.length - 1, Math.floor(line / POINT_EVERY))];
  let i = start?.i ?? 0;
  for (let n = start?.lineNo ?? 0; n < line; n++) {
    const next = text.indexOf('\n', i);
    if (next < 0) return '';
    i = next + 1;
  }
  const end = text.indexOf('\n', i);
  return text.slice(i, end < 0 ? undefined : end);
}
