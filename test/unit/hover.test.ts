import { describe, expect, test } from 'bun:test';
import { sortLocations } from '../../src/answers/places';
import { flattenLocations, hoverText } from '../../src/lsp/convert';

describe('hoverText normalizes all three hover forms', () => {
  test('MarkupContent', () => {
    expect(hoverText({ kind: 'markdown', value: '```go\nfunc F()\n```\n' })).toBe('```go\nfunc F()\n```');
  });
  test('a plain MarkedString', () => {
    expect(hoverText('  just text ')).toBe('just text');
  });
  test('a MarkedString with a language', () => {
    expect(hoverText({ language: 'python', value: 'def f() -> int' })).toBe('```python\ndef f() -> int\n```');
  });
  test('MarkedString[] joined by blank lines, empty parts dropped', () => {
    expect(hoverText([{ language: 'c', value: 'int x' }, '', 'docs'])).toBe('```c\nint x\n```\n\ndocs');
  });
});

describe('locations', () => {
  const range = (l: number) => ({ start: { line: l, character: 0 }, end: { line: l, character: 1 } });
  test('Location, Location[] and LocationLink[] flatten; links use the selection range', () => {
    expect(flattenLocations({ uri: 'file:///a', range: range(1) })).toEqual([{ uri: 'file:///a', range: range(1) }]);
    expect(
      flattenLocations([
        {
          targetUri: 'file:///b',
          targetRange: range(0),
          targetSelectionRange: range(3),
          originSelectionRange: range(9),
        },
      ]),
    ).toEqual([{ uri: 'file:///b', range: range(3) }]);
    expect(flattenLocations(null)).toEqual([]);
  });
  test('sorted by path, line, column; duplicates removed', () => {
    const loc = (path: string, line: number, column: number) => ({
      path,
      line,
      column,
      endLine: line,
      endColumn: column + 1,
      preview: '',
    });
    expect(sortLocations([loc('/b', 1, 1), loc('/a', 2, 5), loc('/a', 2, 1), loc('/b', 1, 1)])).toEqual([
      loc('/a', 2, 1),
      loc('/a', 2, 5),
      loc('/b', 1, 1),
    ]);
  });
});
