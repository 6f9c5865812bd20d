/**
 * inPlaceHunks against jsdiff: wherever it answers, its hunks are the ones
 * Myers' diff finds, on thousands of random files with lines replaced in
 * place (repeated lines, blank lines, changes near each other and at the
 * ends); where its conditions fail, it answers nothing.
 */
import { describe, expect, test } from 'bun:test';
import { structuredPatch } from 'diff';
import { inPlaceHunks } from '../../src/render/line-hunks';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const COMMON = ['}', '', '  return x;', 'import { a } from "./a";', '// note'];

function file(next: () => number, lines: number): string[] {
  return Array.from({ length: lines }, (_, i) =>
    next() < 0.4 ? COMMON[Math.floor(next() * COMMON.length)]! : `line ${i} ${Math.floor(next() * 5)}`,
  );
}

const jsdiff = (before: string, after: string) =>
  structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3 }).hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));

describe('inPlaceHunks', () => {
  test('the hunks jsdiff finds, on 3,000 random in-place edits (those it answers)', () => {
    const next = random(7);
    let answered = 0;
    for (let round = 0; round < 3000; round++) {
      const before = file(next, 1 + Math.floor(next() * 40));
      const after = before.map((line, i) =>
        next() < 0.15 ? (next() < 0.2 ? COMMON[0]! : `renamed ${i} ${line}`) : line,
      );
      const a = `${before.join('\n')}\n`;
      const b = `${after.join('\n')}\n`;
      const fast = inPlaceHunks(a, b, 3);
      if (fast === undefined) continue;
      answered++;
      expect({ round, hunks: fast }).toEqual({ round, hunks: jsdiff(a, b) });
    }
    expect(answered).toBeGreaterThan(1000);
  });

  test('nothing changed: no hunks', () => {
    expect(inPlaceHunks('a\nb\n', 'a\nb\n', 3)).toEqual([]);
  });

  test('not its case: a line added, no final newline, CRLF, a changed line found on the other side', () => {
    expect(inPlaceHunks('a\nb\n', 'a\nb\nc\n', 3)).toBeUndefined();
    expect(inPlaceHunks('a\nb', 'a\nc', 3)).toBeUndefined();
    expect(inPlaceHunks('a\r\nb\r\n', 'a\r\nc\r\n', 3)).toBeUndefined();
    expect(inPlaceHunks('a\nb\nc\n', 'a\nc\nc\n', 3)).toBeUndefined();
  });
});
