/**
 * Which characters of a file are code, and which are in a comment or a
 * string, by the lexical rules of its language: enough to tell a target on
 * a word of a comment ("a word in a comment is no identifier", exit 2 with
 * the nearest names) from one on code, the same for every server. Pure.
 *
 * Not a parser: comments and string literals only, with the escapes, raw
 * strings, JavaScript's `${...}` and Python's f-string `{...}` (code inside
 * a string) that decide where they end.
 */

export interface Syntax {
  /** What starts a comment to the end of the line. */
  lineComments: string[];
  blockComments: [open: string, close: string][];
  /** Quotes that open a string closed by the same quote on the line (escapes with a backslash). */
  quotes: string[];
  /** Backtick strings: JavaScript's template literals (with `${...}`), Go's raw strings. */
  backtick?: 'template' | 'raw';
  /** Python: triple quotes, and f-strings whose `{...}` is code. */
  python?: boolean;
}

const C_LIKE: Syntax = { lineComments: ['//'], blockComments: [['/*', '*/']], quotes: ['"', "'"] };
const HASH: Syntax = { lineComments: ['#'], blockComments: [], quotes: ['"', "'"] };

const BY_EXTENSION: Record<string, Syntax> = {
  ...Object.fromEntries(
    ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.vue', '.svelte'].map((e) => [
      e,
      { ...C_LIKE, backtick: 'template' } satisfies Syntax,
    ]),
  ),
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

export type Kind = 'code' | 'comment' | 'string';

type State =
  | { in: 'code' }
  | { in: 'comment'; close: string | null }
  | { in: 'string'; quote: string; escapes: boolean; interpolates: boolean };

/** The line asked last: a target's line is asked once for each word on it that matches. */
let lastLine: { text: string; line: number; syntax: Syntax; kinds: Kind[] } | undefined;

/** The kind of each UTF-16 unit of line `line` (0-based) of `text`. */
export function lineKinds(text: string, line: number, syntax: Syntax): Kind[] {
  if (lastLine?.line === line && lastLine.syntax === syntax && lastLine.text === text) return lastLine.kinds;
  const kinds = linesKinds(text, line, line, syntax)[0] ?? [];
  lastLine = { text, line, syntax, kinds };
  return kinds;
}

/** Where a scan stands at the start of a line: what is open there (a block comment, a string, code in a string). */
interface Point {
  i: number;
  lineNo: number;
  state: State;
  /** Code inside a string (`${...}`, f-string `{...}`): the strings to go back to, and each one's brace depth. */
  outer: { string: State; depth: number }[];
}

/** Lines between two remembered points of a file: a question scans at most this many lines before its own. */
const POINT_EVERY = 16;
/** Files whose points are remembered (a warm question asks about the same few files again and again). */
const POINTS_KEPT = 32;
const remembered = new Map<string, { syntax: Syntax; points: Point[] }>();

const copy = (p: Point): Point => ({ ...p, outer: p.outer.map((o) => ({ ...o })) });

/**
 * The point at the start of every POINT_EVERY-th line of `text`, from one
 * scan of the whole file, remembered for the text (a warm question about
 * line 1,800 of a file would otherwise scan the 1,800 lines before it,
 * several times over: the most of its own time).
 */
function pointsOf(text: string, syntax: Syntax): Point[] {
  const known = remembered.get(text);
  if (known?.syntax === syntax) {
    remembered.delete(text);
    remembered.set(text, known);
    return known.points;
  }
  const points: Point[] = [];
  scan(text, syntax, { i: 0, lineNo: 0, state: { in: 'code' }, outer: [] }, Infinity, Infinity, (p) => {
    if (p.lineNo % POINT_EVERY === 0) points.push(copy(p));
  });
  remembered.set(text, { syntax, points });
  if (remembered.size > POINTS_KEPT) remembered.delete(remembered.keys().next().value!);
  return points;
}

/**
 * The kind of each UTF-16 unit of lines `from` to `to` (0-based) of
 * `text`, scanned from the nearest remembered point before `from` (a block
 * comment or a string may open on an earlier line).
 */
export function linesKinds(text: string, from: number, to: number, syntax: Syntax): Kind[][] {
  const points = pointsOf(text, syntax);
  const start = points[Math.min(points.length - 1, Math.floor(from / POINT_EVERY))];
  return scan(text, syntax, start ? copy(start) : { i: 0, lineNo: 0, state: { in: 'code' }, outer: [] }, from, to);
}

/** Scans from `at` to the end of line `to`, marking lines `from` to `to`; `onLine` sees the point at each line's start. */
function scan(
  text: string,
  syntax: Syntax,
  at: Point,
  from: number,
  to: number,
  onLine?: (p: Point) => void,
): Kind[][] {
  let { state, lineNo, i } = at;
  const { outer } = at;
  const out: Kind[][] = [];
  let kinds: Kind[] = [];
  const mark = (kind: Kind, n: number) => {
    if (lineNo >= from) for (let k = 0; k < n; k++) kinds.push(kind);
  };
  const starts = (at: number, s: string) => text.startsWith(s, at);
  onLine?.({ i, lineNo, state, outer });
  while (i < text.length && lineNo <= to) {
    const c = text[i]!;
    if (c === '\n') {
      if (state.in === 'comment' && state.close === null) state = { in: 'code' };
      // A single-quoted string does not go past its line (an unterminated one ends there).
      if (state.in === 'string' && state.quote.length === 1 && state.quote !== '`') state = { in: 'code' };
      if (lineNo >= from) out.push(kinds);
      kinds = [];
      lineNo++;
      i++;
      onLine?.({ i, lineNo, state, outer });
      continue;
    }
    if (state.in === 'comment') {
      if (state.close !== null && starts(i, state.close)) {
        mark('comment', state.close.length);
        i += state.close.length;
        state = { in: 'code' };
      } else {
        mark('comment', 1);
        i++;
      }
      continue;
    }
    if (state.in === 'string') {
      if (state.escapes && c === '\\') {
        mark('string', Math.min(2, text.length - i));
        i += 2;
        continue;
      }
      if (starts(i, state.quote)) {
        mark('string', state.quote.length);
        i += state.quote.length;
        state = { in: 'code' };
        continue;
      }
      const opensCode = state.interpolates && (state.quote === '`' ? starts(i, '${') : c === '{' && !starts(i, '{{'));
      if (opensCode) {
        const n = state.quote === '`' ? 2 : 1;
        mark('string', n);
        i += n;
        outer.push({ string: state, depth: 0 });
        state = { in: 'code' };
        continue;
      }
      mark('string', starts(i, '{{') && state.interpolates ? 2 : 1);
      i += starts(i, '{{') && state.interpolates ? 2 : 1;
      continue;
    }
    // Code.
    const top = outer.at(-1);
    if (top && c === '{') top.depth++;
    if (top && c === '}') {
      if (top.depth === 0) {
        outer.pop();
        state = top.string;
        mark('string', 1);
        i++;
        continue;
      }
      top.depth--;
    }
    const block = syntax.blockComments.find(([open]) => starts(i, open));
    if (block) {
      mark('comment', block[0].length);
      i += block[0].length;
      state = { in: 'comment', close: block[1] };
      continue;
    }
    const lineComment = syntax.lineComments.find((open) => starts(i, open));
    if (lineComment) {
      state = { in: 'comment', close: null };
      continue;
    }
    const opened = openString(text, i, syntax);
    if (opened) {
      mark('code', opened.prefix);
      mark('string', opened.quote.length);
      i += opened.prefix + opened.quote.length;
      state = { in: 'string', quote: opened.quote, escapes: opened.escapes, interpolates: opened.interpolates };
      continue;
    }
    mark('code', 1);
    i++;
  }
  if (lineNo <= to && lineNo >= from) out.push(kinds);
  return out;
}

/** A string opening at `i` (after its prefix: Python's r, f, b), or undefined. */
function openString(
  text: string,
  i: number,
  syntax: Syntax,
): { prefix: number; quote: string; escapes: boolean; interpolates: boolean } | undefined {
  const c = text[i]!;
  if (c === '`' && syntax.backtick)
    return {
      prefix: 0,
      quote: '`',
      escapes: syntax.backtick === 'template',
      interpolates: syntax.backtick === 'template',
    };
  if (syntax.python) {
    const m = /^([rRbBfFuU]{0,2})("""|'''|"|')/.exec(text.slice(i, i + 5));
    // A prefix only where a name does not go on before it (`inf'` is no f-string).
    if (m && (m[1] === '' || !/[\p{L}\p{N}_]/u.test(text[i - 1] ?? ''))) {
      const prefix = m[1]!.toLowerCase();
      return { prefix: m[1]!.length, quote: m[2]!, escapes: !prefix.includes('r'), interpolates: prefix.includes('f') };
    }
    return undefined;
  }
  if (syntax.quotes.includes(c)) return { prefix: 0, quote: c, escapes: true, interpolates: false };
  return undefined;
}

/** The kind of the character at 1-based code-point `column` of line `line` (1-based). */
export function kindAt(text: string, line: number, column: number, syntax: Syntax): Kind {
  const kinds = lineKinds(text, line - 1, syntax);
  const lineText = lineOf(text, line - 1, pointsOf(text, syntax));
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
