import { describe, expect, test } from 'bun:test';
import { fromServerCharacter, negotiatedEncoding, splitLines, toServerCharacter } from '../../src/lsp/position';

// "const 名前 = '🎉 图形'; x" : CJK is 1 UTF-16 unit / 3 UTF-8 bytes; the emoji 2 units / 4 bytes.
const LINE = "const 名前 = '🎉 图形'; x";
const X_COLUMN = Array.from(LINE).indexOf('x');

describe('position encodings', () => {
  test.each([
    ['utf-32', X_COLUMN],
    ['utf-16', X_COLUMN + 1],
    ['utf-8', X_COLUMN + 2 * 2 + 4 - 1 + 2 * 2],
  ] as const)('%s: code-point column to server units and back', (encoding, units) => {
    expect(toServerCharacter(LINE, X_COLUMN, encoding)).toBe(units);
    expect(fromServerCharacter(LINE, units, encoding)).toBe(X_COLUMN);
  });

  test('utf-8 offset counts bytes', () => {
    expect(toServerCharacter(LINE, X_COLUMN, 'utf-8')).toBe(Buffer.byteLength(LINE.slice(0, LINE.indexOf('x'))));
  });

  test('utf-16 offset counts code units', () => {
    expect(toServerCharacter(LINE, X_COLUMN, 'utf-16')).toBe(LINE.indexOf('x'));
  });

  test('a column past the end clamps to the end', () => {
    expect(toServerCharacter('ab', 5, 'utf-16')).toBe(2);
    expect(fromServerCharacter('ab', 9, 'utf-16')).toBe(2);
  });

  test('an offset inside a surrogate pair rounds down to the character', () => {
    expect(fromServerCharacter('🎉x', 1, 'utf-16')).toBe(0);
    expect(fromServerCharacter('🎉x', 2, 'utf-16')).toBe(1);
  });

  test('a tab is one character', () => {
    expect(toServerCharacter('\tfoo', 1, 'utf-8')).toBe(1);
  });

  test('negotiation defaults to utf-16', () => {
    expect(negotiatedEncoding(undefined)).toBe('utf-16');
    expect(negotiatedEncoding('utf-8')).toBe('utf-8');
    expect(negotiatedEncoding('utf-32')).toBe('utf-32');
    expect(negotiatedEncoding('latin-1')).toBe('utf-16');
  });

  test('lines split on \\n, \\r\\n and \\r', () => {
    expect(splitLines('a\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
  });
});
