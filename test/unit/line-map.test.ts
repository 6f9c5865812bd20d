import { expect, test } from 'bun:test';
import { lineMap } from '../../src/lsp/line-map';

test('unchanged lines map to where they are now; added and changed lines are listed', () => {
  const m = lineMap('a\nb\nc\nd\n', 'a\nnew\nb\nC\nd\n');
  expect([1, 2, 3, 4].map((l) => m.toNew(l))).toEqual([1, 3, undefined, 5]);
  expect([...m.changed].sort()).toEqual([2, 4]);
});

test('a file added since (no old text): every line is changed', () => {
  const m = lineMap('', 'x\ny\n');
  expect([...m.changed]).toEqual([1, 2]);
  expect(m.toNew(1)).toBeUndefined();
});
