/**
 * The scanner of lexical.ts: one pass over a file's characters with a stack
 * of frames (lexical-frames.ts), each character marked with the kind of the
 * frame it is read in. Pure.
 */
import {
  attributeQuote,
  codeFrame,
  endTag,
  type Frame,
  isSpace,
  JSX,
  type Kind,
  MARKUP_NAME,
  openString,
  type Point,
  regexEnd,
  RegexMisses,
  SCRIPT,
  SPACE,
  TAG_START,
  valueMayStart,
  vueExpression,
} from './lexical-frames';

/**
 * A line longer than this (UTF-16 units) is not scanned: its characters
 * have no kind (callers take them as code) and nothing it opens is carried
 * past it. Minified and generated lines are that long, and no person's
 * target is on a word of a comment there; scanned, an 8 MB line held the
 * daemon's one thread for seconds (and its names for minutes).
 */
export const LONG_LINE = 20_000;

/** Frames nested deeper than this are not pushed: no code a person reads nests so deep, and each line's point copies them. */
const MAX_FRAMES = 256;

/** Scans from `at` to the end of line `to`, marking lines `from` to `to`; `onLine` sees the point at each line's start. */
export function scan(text: string, at: Point, from: number, to: number, onLine?: (p: Point) => void): Kind[][] {
  let { lineNo, i } = at;
  const { stack } = at;
  const out: Kind[][] = [];
  let kinds: Kind[] = [];
  let misses = new RegexMisses();
  const mark = (kind: Kind, n: number) => {
    if (lineNo >= from) for (let k = 0; k < n; k++) kinds.push(kind);
  };
  const starts = (at: number, s: string) => text.startsWith(s, at);
  const push = (frame: Frame) => {
    if (stack.length < MAX_FRAMES) stack.push(frame);
  };
  const pop = () => {
    if (stack.length > 1) stack.pop();
  };
  /** At a line's start: a long line is passed over whole, to its newline. */
  const overLong = () => {
    const eol = text.indexOf('\n', i);
    const end = eol < 0 ? text.length : eol;
    if (end - i > LONG_LINE) i = end;
  };
  onLine?.({ i, lineNo, stack });
  overLong();
  while (i < text.length && lineNo <= to) {
    const c = text.charAt(i);
    // biome-ignore lint/style/noNonNullAssertion: pop() keeps the bottom frame, so the stack is never empty
    const top = stack.at(-1)!;
    if (c === '\n') {
      if (top.in === 'comment' && top.close === null) pop();
      // A single-quoted string does not go past its line (an unterminated one ends there).
      if (top.in === 'string' && top.quote.length === 1 && top.quote !== '`') pop();
      if (lineNo >= from) out.push(kinds);
      kinds = [];
      misses = new RegexMisses();
      lineNo++;
      i++;
      onLine?.({ i, lineNo, stack });
      overLong();
      continue;
    }
    switch (top.in) {
      case 'comment': {
        if (top.close !== null && starts(i, top.close)) {
          mark('comment', top.close.length);
          i += top.close.length;
          pop();
        } else {
          mark('comment', 1);
          i++;
        }
        continue;
      }
      case 'string': {
        if (top.attribute === c) {
          // The attribute's quote ends the attribute: the string in its expression goes with it.
          while (stack.length > 1) {
            const f = stack.pop();
            if (!f || (f.in === 'code' && f.end?.by === 'quote')) break;
          }
          mark('string', 1);
          i++;
          continue;
        }
        if (top.escapes && c === '\\') {
          mark('string', Math.min(2, text.length - i));
          i += 2;
          continue;
        }
        if (starts(i, top.quote)) {
          mark('string', top.quote.length);
          i += top.quote.length;
          pop();
          continue;
        }
        const opensCode = top.interpolates && (top.quote === '`' ? starts(i, '${') : c === '{' && !starts(i, '{{'));
        if (opensCode) {
          const n = top.quote === '`' ? 2 : 1;
          mark('string', n);
          i += n;
          push(codeFrame(top.syntax, { by: 'brace', mark: 'string' }));
          continue;
        }
        const n = starts(i, '{{') && top.interpolates ? 2 : 1;
        mark('string', n);
        i += n;
        continue;
      }
      case 'code': {
        const { end, syntax } = top;
        if (end?.by === 'quote' && c === end.quote) {
          mark('string', 1);
          i++;
          pop();
          continue;
        }
        if (
          end?.by === 'close' &&
          starts(i, '</') &&
          text.slice(i + 2, i + 2 + end.tag.length).toLowerCase() === end.tag
        ) {
          pop(); // the closing tag is the template's again
          continue;
        }
        if (end?.by === 'mustache' && top.depth === 0 && starts(i, '}}')) {
          mark('code', 2);
          i += 2;
          pop();
          continue;
        }
        if (c === '{') top.depth++;
        if (c === '}') {
          if (top.depth === 0 && end?.by === 'brace') {
            mark(end.mark, 1);
            i++;
            pop();
            continue;
          }
          if (top.depth > 0) top.depth--;
        }
        const block = syntax.blockComments.find(([open]) => starts(i, open));
        if (block) {
          mark('comment', block[0].length);
          i += block[0].length;
          push({ in: 'comment', close: block[1] });
          continue;
        }
        if (syntax.lineComments.some((open) => starts(i, open))) {
          push({ in: 'comment', close: null });
          continue;
        }
        const opened = openString(text, i, syntax);
        if (opened) {
          mark('code', opened.prefix);
          mark('string', opened.quote.length);
          i += opened.prefix + opened.quote.length;
          const attribute = attributeQuote(stack);
          // What follows a string is what follows a value.
          top.prev = '"';
          push({ in: 'string', syntax, ...opened, ...(attribute ? { attribute } : {}) });
          continue;
        }
        // JavaScript's regular expression literal, where a value may start (else a `/` divides).
        const regex =
          syntax.backtick === 'template' && c === '/' && valueMayStart(top, text)
            ? regexEnd(text, i, misses)
            : undefined;
        if (regex !== undefined) {
          mark('string', regex - i);
          i = regex;
          top.prev = ')';
          continue;
        }
        if (syntax.markup === 'jsx' && c === '<' && valueMayStart(top, text) && /[A-Za-z_$>]/.test(text[i + 1] ?? '')) {
          mark('code', 1);
          i++;
          push({ in: 'tag', markup: 'jsx', phase: 'name', name: '', closing: false, attribute: '' });
          continue;
        }
        if (!isSpace(c)) {
          top.prev = c;
          top.prevAt = i;
        }
        mark('code', 1);
        i++;
        continue;
      }
      case 'text': {
        if (top.markup === 'vue' && starts(i, '{{')) {
          mark('code', 2);
          i += 2;
          push(codeFrame(SCRIPT, { by: 'mustache' }));
          continue;
        }
        if (top.markup !== 'vue' && c === '{') {
          mark('code', 1);
          i++;
          push(codeFrame(top.markup === 'jsx' ? JSX : SCRIPT, { by: 'brace', mark: 'code' }));
          continue;
        }
        if (top.markup !== 'jsx' && starts(i, '<!--')) {
          mark('comment', 4);
          i += 4;
          push({ in: 'comment', close: '-->' });
          continue;
        }
        const next = text[i + 1] ?? '';
        if (c === '<' && (next === '/' || TAG_START.test(next) || (top.markup === 'jsx' && next === '>'))) {
          const closing = next === '/';
          // A JSX element's children end at its closing tag.
          if (closing && top.markup === 'jsx') pop();
          mark('code', closing ? 2 : 1);
          i += closing ? 2 : 1;
          push({ in: 'tag', markup: top.markup, phase: 'name', name: '', closing, attribute: '' });
          continue;
        }
        mark('text', 1);
        i++;
        continue;
      }
      case 'tag': {
        if (top.phase === 'name') {
          if (MARKUP_NAME.test(c)) {
            top.name += c;
            mark('code', 1);
            i++;
            continue;
          }
          top.phase = 'attributes';
        }
        if (top.phase === 'value') {
          if (SPACE.test(c)) {
            mark('code', 1);
            i++;
            continue;
          }
          top.phase = 'attributes';
          if (c === '"' || c === "'") {
            mark('string', 1);
            i++;
            if (top.markup === 'vue' && vueExpression(top.attribute))
              push(codeFrame(SCRIPT, { by: 'quote', quote: c }));
            else push({ in: 'value', markup: top.markup, quote: c });
            continue;
          }
          if (c === '{' && top.markup !== 'vue') {
            mark('code', 1);
            i++;
            push(codeFrame(top.markup === 'jsx' ? JSX : SCRIPT, { by: 'brace', mark: 'code' }));
            continue;
          }
          if (c !== '>') {
            push({ in: 'value', markup: top.markup, quote: '' });
            continue;
          }
        }
        // Attributes.
        if (c === '>' || starts(i, '/>')) {
          const n = c === '>' ? 1 : 2;
          mark('code', n);
          i += n;
          endTag(stack, top, n === 2);
          continue;
        }
        if (SPACE.test(c)) {
          // `<T extends U>` in a .tsx file is a generic function's type parameter, not an element.
          if (top.markup === 'jsx' && top.attribute === 'extends') {
            pop();
            continue;
          }
          top.attribute = '';
          mark('code', 1);
          i++;
          continue;
        }
        if (c === '=') {
          top.phase = 'value';
          mark('code', 1);
          i++;
          continue;
        }
        if (c === '{' && top.markup !== 'vue') {
          mark('code', 1);
          i++;
          push(codeFrame(top.markup === 'jsx' ? JSX : SCRIPT, { by: 'brace', mark: 'code' }));
          continue;
        }
        if (MARKUP_NAME.test(c)) {
          top.attribute += c;
          mark('code', 1);
          i++;
          continue;
        }
        // No attribute is made of this: in JavaScript, a `<` that compares (or a type's); in a template, a typo.
        if (top.markup === 'jsx') {
          pop();
          continue;
        }
        mark('code', 1);
        i++;
        continue;
      }
      case 'value': {
        if (top.quote === '' && (SPACE.test(c) || c === '>' || starts(i, '/>'))) {
          pop();
          continue;
        }
        if (c === top.quote) {
          mark('string', 1);
          i++;
          pop();
          continue;
        }
        if (top.markup === 'svelte' && c === '{') {
          mark('code', 1);
          i++;
          push(codeFrame(SCRIPT, { by: 'brace', mark: 'code' }));
          continue;
        }
        mark('string', 1);
        i++;
        continue;
      }
    }
  }
  if (lineNo <= to && lineNo >= from) out.push(kinds);
  return out;
}
