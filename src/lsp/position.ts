/**
 * Position encodings. Users count code points; servers count UTF-16 code
 * units unless they negotiated utf-8 (bytes) or utf-32 (code points).
 * Conversions are per line of the text the server was sent.
 */
export type PositionEncoding = 'utf-8' | 'utf-16' | 'utf-32';

/** Width of one code point (a string's character, as `for...of` gives it) in the given encoding. */
function unitWidth(ch: string, encoding: PositionEncoding): number {
  if (encoding === 'utf-32') return 1;
  // Past U+FFFF: a surrogate pair in UTF-16, four bytes in UTF-8.
  if (ch.length === 2) return encoding === 'utf-16' ? 2 : 4;
  if (encoding === 'utf-16') return 1;
  const unit = ch.charCodeAt(0);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return 3;
}

/** Code-point column (0-based) to the server's unit offset. Past the end clamps to the end. */
export function toServerCharacter(line: string, column: number, encoding: PositionEncoding): number {
  let units = 0;
  let seen = 0;
  for (const ch of line) {
    if (seen === column) return units;
    units += unitWidth(ch, encoding);
    seen++;
  }
  return units;
}

/** The server's unit offset to a code-point column (0-based). An offset inside a character rounds down. */
export function fromServerCharacter(line: string, character: number, encoding: PositionEncoding): number {
  let units = 0;
  let column = 0;
  for (const ch of line) {
    const width = unitWidth(ch, encoding);
    if (units + width > character) return column;
    units += width;
    column++;
  }
  return column;
}

/** Splits text into lines the way LSP does: \n, \r\n and \r all end a line. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Number of code points in a line. */
export function codePointLength(line: string): number {
  let n = 0;
  for (const _ of line) n++;
  return n;
}

/** Picks the encoding from the server's answer; LSP says absent means utf-16. */
export function negotiatedEncoding(value: unknown): PositionEncoding {
  return value === 'utf-8' || value === 'utf-32' ? value : 'utf-16';
}

/** The server's unit offset in a line to an index into the JavaScript string (UTF-16). Past the end clamps to the end. */
export function toStringOffset(line: string, character: number, encoding: PositionEncoding): number {
  if (encoding === 'utf-16') return Math.min(character, line.length);
  let units = 0;
  let index = 0;
  for (const ch of line) {
    if (units >= character) return index;
    units += unitWidth(ch, encoding);
    index += ch.length;
  }
  return index;
}
