/**
 * What lexical.ts's scanner reads with: the syntaxes, the frames a scan
 * stacks (code, a comment, a string, a template's text, a tag, a plain
 * attribute's value) and what opens and closes them. Pure.
 */

/** Markup around code: a Vue single-file component, a Svelte component, JSX's elements in JavaScript. */
export type Markup = 'vue' | 'svelte' | 'jsx';

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
  /** The file is markup (vue, svelte) whose expressions are JavaScript, or JavaScript with JSX elements in it. */
  markup?: Markup;
}

/** `text`: a template's text between its tags. */
export type Kind = 'code' | 'comment' | 'string' | 'text';

export const C_LIKE: Syntax = { lineComments: ['//'], blockComments: [['/*', '*/']], quotes: ['"', "'"] };
export const HASH: Syntax = { lineComments: ['#'], blockComments: [], quotes: ['"', "'"] };
/** The code of a template's expressions and of its `<script>`. */
export const SCRIPT: Syntax = { ...C_LIKE, backtick: 'template' };
/** A component's `<style>`. */
const STYLE: Syntax = C_LIKE;

/** How a stretch of code inside something else ends, and what its closing characters are marked. */
export type End =
  /** `${...}`, an f-string's `{...}`, Svelte's and JSX's `{...}`: the `}` that balances. */
  | { by: 'brace'; mark: Kind }
  /** Vue's `{{ ... }}`. */
  | { by: 'mustache' }
  /** A Vue directive's value: the attribute's closing quote. */
  | { by: 'quote'; quote: string }
  /** A component's `<script>` or `<style>`: its closing tag. */
  | { by: 'close'; tag: string };

export type Frame =
  | {
      in: 'code';
      syntax: Syntax;
      end?: End;
      /** Braces opened and not yet closed. */
      depth: number;
      /** The last character that was not white space, and where (JSX starts only where a value may). */
      prev: string;
      prevAt: number;
    }
  | { in: 'comment'; close: string | null }
  | {
      in: 'string';
      syntax: Syntax;
      quote: string;
      escapes: boolean;
      interpolates: boolean;
      /** The quote of the Vue attribute it is in: that quote ends the attribute, string and all. */
      attribute?: string;
    }
  /** A template's text: between tags (Vue's and Svelte's whole template, a JSX element's children). */
  | { in: 'text'; markup: Markup }
  | {
      in: 'tag';
      markup: Markup;
      phase: 'name' | 'attributes' | 'value';
      name: string;
      closing: boolean;
      /** The attribute being read, its name so far. */
      attribute: string;
    }
  /** A plain attribute's value; '' for one without quotes. Svelte's `{...}` in it is code. */
  | { in: 'value'; markup: Markup; quote: string };

/** The frames open at the start of a file. */
export function topOf(syntax: Syntax): Frame[] {
  if (syntax.markup === 'vue' || syntax.markup === 'svelte') return [{ in: 'text', markup: syntax.markup }];
  return [codeFrame(syntax)];
}

export const codeFrame = (syntax: Syntax, end?: End): Frame => ({
  in: 'code',
  syntax,
  end,
  depth: 0,
  prev: '',
  prevAt: -1,
});

/** Where a scan stands at the start of a line: what is open there (a block comment, a string, code in a string, a tag). */
export interface Point {
  i: number;
  lineNo: number;
  stack: Frame[];
}

export const copyPoint = (p: Point): Point => ({ ...p, stack: p.stack.map((f) => ({ ...f })) });
export const startOf = (syntax: Syntax): Point => ({ i: 0, lineNo: 0, stack: topOf(syntax) });

export const NAME_CHAR = /[\p{L}\p{N}_$]/u;
/** NAME_CHAR, ASCII told without a regular expression (every character of code is asked). */
export function isNameChar(c: string): boolean {
  const k = c.charCodeAt(0);
  if (k < 128) return (k >= 48 && k <= 57) || (k >= 65 && k <= 90) || (k >= 97 && k <= 122) || k === 95 || k === 36;
  return NAME_CHAR.test(c);
}
export const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || (c.charCodeAt(0) > 127 && SPACE.test(c));
export const TAG_START = /[A-Za-z]/;
/** What a tag's or an attribute's name is made of (`v-on:click.stop`, `<svelte:head>`, `<Foo.Bar>`, `aria-label`). */
export const MARKUP_NAME = /[\p{L}\p{N}_$\-:.@#[\]]/u;
export const SPACE = /\s/;
/** Words after which a JSX element may start (`return <div/>`); after another name, `<` compares. */
const BEFORE_VALUE = new Set([
  'return',
  'yield',
  'await',
  'default',
  'case',
  'else',
  'do',
  'in',
  'of',
  'typeof',
  'void',
]);

/** Whether a Vue attribute's value is an expression: a directive (`v-if`, `v-for`), a binding (`:x`) or a handler (`@x`), a slot (`#x`). */
export const vueExpression = (name: string) => /^(v-|:|@|#)/.test(name);

/** The code of JSX's `{...}`: JavaScript in which elements may start again. */
export const JSX: Syntax = { ...SCRIPT, markup: 'jsx' };

/**
 * Whether a value may start here (a JSX element, a regular expression):
 * not after a name, a closing bracket or a string (`a < b`, `f<T>()`,
 * `x / 2`), unless the name is a keyword a value follows (`return`).
 */
export function valueMayStart(code: Extract<Frame, { in: 'code' }>, text: string): boolean {
  if (code.prev === '') return true;
  if (isNameChar(code.prev)) {
    let start = code.prevAt;
    while (start > 0 && isNameChar(text.charAt(start - 1))) start--;
    return BEFORE_VALUE.has(text.slice(start, code.prevAt + 1));
  }
  return !')]"'.includes(code.prev);
}

/**
 * The places (and whether in a character class) that a search for a
 * regular expression's end passed on its way to finding none, on one line.
 * The search is the same from the same place, so a later one that reaches
 * such a place finds none either: a line of `(/[` repeated is searched
 * once over, not once per `/` (8 MB of it held the daemon for minutes).
 */
export class RegexMisses {
  private from = -1;
  private seen: Uint8Array = new Uint8Array(0);

  has(j: number, inClass: boolean): boolean {
    const k = j - this.from;
    return this.from >= 0 && k >= 0 && k < this.seen.length && ((this.seen[k] ?? 0) & (inClass ? 2 : 1)) !== 0;
  }

  add(text: string, states: number[]): void {
    const first = states[0];
    if (first === undefined) return;
    if (this.from < 0 || first >> 1 < this.from) {
      // Sized to the end of the line the search began on: a later search on it starts after this one.
      const eol = text.indexOf('\n', first >> 1);
      this.from = first >> 1;
      this.seen = new Uint8Array((eol < 0 ? text.length : eol) - this.from + 2);
    }
    for (const s of states) {
      const k = (s >> 1) - this.from;
      if (k >= 0 && k < this.seen.length) this.seen[k] = (this.seen[k] ?? 0) | (s & 1 ? 2 : 1);
    }
  }
}

/** Where a regular expression literal opening at `i` ends (after its flags), or undefined where none does on the line. */
export function regexEnd(text: string, i: number, misses?: RegexMisses): number | undefined {
  const next = text[i + 1];
  if (next === '/' || next === '*' || next === undefined) return undefined;
  let inClass = false;
  const passed: number[] = [];
  const none = () => {
    misses?.add(text, passed);
    return undefined;
  };
  for (let j = i + 1; j < text.length; j++) {
    if (misses?.has(j, inClass)) return none();
    passed.push(j * 2 + (inClass ? 1 : 0));
    const c = text.charAt(j);
    if (c === '\n') return none();
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      let end = j + 1;
      while (end < text.length && /[a-z]/.test(text.charAt(end))) end++;
      return end;
    }
  }
  return none();
}

/**
 * The quote of the Vue attribute whose expression the scan is in, if it is
 * in one. A string frame holds the answer for everything under it (found
 * when it opened), so this looks at two frames, not the whole stack: a
 * file of nested template strings made every string's opening walk them all.
 */
export function attributeQuote(stack: Frame[]): string | undefined {
  for (let k = stack.length - 1; k >= 0; k--) {
    const f = stack[k];
    if (f?.in === 'code' && f.end?.by === 'quote') return f.end.quote;
    if (f?.in === 'string') return f.attribute;
    if (f?.in !== 'code') return undefined;
  }
  return undefined;
}

/**
 * A tag's `>` (or `/>`): in JSX an element opens its children (or, closed,
 * goes back to the code or children around it); a component's `<script>`
 * and `<style>` open their code.
 */
export function endTag(stack: Frame[], tag: Extract<Frame, { in: 'tag' }>, selfClosing: boolean): void {
  stack.pop();
  const below = stack.at(-1);
  if (tag.markup === 'jsx') {
    if (!tag.closing && !selfClosing) stack.push({ in: 'text', markup: 'jsx' });
    // After an element, a `<` compares (or is nothing): as after a closing bracket.
    else if (below?.in === 'code') below.prev = ')';
    return;
  }
  const name = tag.name.toLowerCase();
  if (tag.closing || selfClosing || (name !== 'script' && name !== 'style')) return;
  stack.push(codeFrame(name === 'script' ? SCRIPT : STYLE, { by: 'close', tag: name }));
}

/** A string opening at `i` (after its prefix: Python's r, f, b), or undefined. */
export function openString(
  text: string,
  i: number,
  syntax: Syntax,
): { prefix: number; quote: string; escapes: boolean; interpolates: boolean } | undefined {
  const c = text.charAt(i);
  if (c === '`' && syntax.backtick)
    return {
      prefix: 0,
      quote: '`',
      escapes: syntax.backtick === 'template',
      interpolates: syntax.backtick === 'template',
    };
  if (syntax.python) {
    const [, letters, quote] = /^([rRbBfFuU]{0,2})("""|'''|"|')/.exec(text.slice(i, i + 5)) ?? [];
    // A prefix only where a name does not go on before it (`inf'` is no f-string).
    if (letters !== undefined && quote && (letters === '' || !/[\p{L}\p{N}_]/u.test(text[i - 1] ?? ''))) {
      const prefix = letters.toLowerCase();
      return { prefix: letters.length, quote, escapes: !prefix.includes('r'), interpolates: prefix.includes('f') };
    }
    return undefined;
  }
  if (syntax.quotes.includes(c)) return { prefix: 0, quote: c, escapes: true, interpolates: false };
  return undefined;
}
