import { describe, expect, test } from 'bun:test';
import { PREVIEW_MAX_CHARS, previewOf } from '../../src/lsp/preview';

describe('previewOf: a window around the location', () => {
  test('a short line is trimmed, not cut', () => {
    expect(previewOf('    return area(s);  ', 12)).toBe('return area(s);');
  });

  test('a minified line is cut around the column, with an ellipsis on each cut side', () => {
    const line = `${'a'.repeat(40_000)}TARGET${'b'.repeat(40_000)}`;
    const p = previewOf(line, 40_001);
    expect(p).toBe(`…${'a'.repeat(40)}TARGET${'b'.repeat(PREVIEW_MAX_CHARS - 46)}…`);
  });

  test('near the start: no leading ellipsis', () => {
    const line = `x = ${'1,'.repeat(500)}`;
    const p = previewOf(line, 1);
    expect(p.startsWith('x = 1,')).toBe(true);
    expect(p.endsWith('…')).toBe(true);
    expect([...p].length).toBe(PREVIEW_MAX_CHARS + 1);
  });

  test('near the end: the window ends with the line, no trailing ellipsis', () => {
    const line = `${'c'.repeat(1000)}END`;
    const p = previewOf(line, 1001);
    expect(p).toBe(`…${'c'.repeat(PREVIEW_MAX_CHARS - 3)}END`);
  });

  test('counts code points: an emoji is one character, never split', () => {
    const line = `  ${'😀'.repeat(300)}`;
    const p = previewOf(line, 3 + 100);
    expect([...p].length).toBe(PREVIEW_MAX_CHARS + 2);
    expect(p).toBe(`…${'😀'.repeat(PREVIEW_MAX_CHARS)}…`);
  });
});
