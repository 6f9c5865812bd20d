import { describe, expect, test } from 'bun:test';
import {
  editDistance,
  identifiersNear,
  namesOnLine,
  nearestToName,
  nearestToPlace,
  onNoName,
} from '../../src/engine/hints';
import { syntaxOf } from '../../src/lsp/lexical';

const lines = [
  'package main',
  '',
  'func main() {',
  '\tshapes := []Shape{Circle{Radius: 1}}',
  '\tfmt.Println("total area", TotalArea(shapes, "cm")) // prints it',
  '}',
];

describe('hints on a miss', () => {
  test('identifiers of the line and two either side, keywords and words in strings and comments left out', () => {
    expect(identifiersNear(lines, 5).map((w) => `${w.line}:${w.column}:${w.text}`)).toEqual([
      '3:6:main',
      '4:2:shapes',
      '4:14:Shape',
      '4:20:Circle',
      '4:27:Radius',
      '5:2:fmt',
      '5:6:Println',
      '5:28:TotalArea',
      '5:38:shapes',
    ]);
  });

  test('the names of one line (FILE:LINE): one-letter ones too, keywords, strings, comments and _ left out', () => {
    const go = ['package main', 'func f() {', '\tfor _, s := range list { x := s } // all', '\tprintln("name")', '}'];
    const at = (line: number) => namesOnLine(go, line, syntaxOf('a.go')).map((w) => `${w.column}:${w.text}`);
    expect([at(1), at(2), at(3), at(4), at(5)]).toEqual([
      ['9:main'],
      ['6:f'],
      ['9:s', '20:list', '27:x'],
      ['2:println'],
      [],
    ]);
  });

  test('closest to NAME first: edit distance, case aside, then lines apart', () => {
    expect(editDistance('TotlArea', 'TotalArea')).toBe(1);
    expect(editDistance('shape', 'Shape')).toBe(0);
    const near = nearestToName(lines, 'TotlArea', 5).map((w) => w.text);
    expect(near[0]).toBe('TotalArea');
    expect(
      nearestToName(lines, 'shape', 5)
        .map((w) => `${w.line}:${w.text}`)
        .slice(0, 2),
    ).toEqual(['4:Shape', '5:shapes']);
  });

  test('NAME itself on the nearest lines holding it, however far (a line number from before an edit), in code only', () => {
    const file = [
      '// createProxy is below',
      ...Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`),
      'export function createProxy() {}',
      'const x = 1;',
    ];
    const syntax = syntaxOf('a.ts');
    expect(nearestToName(file, 'createProxy', 5, syntax).map((w) => `${w.line}:${w.text}`)[0]).toBe('42:createProxy');
  });

  test('names that start with or contain NAME before edit distance; no one-letter names', () => {
    const file = ['function dieHard(e: any) {', '  return e;', '}', 'dieHard(1);'];
    expect(nearestToName(file, 'die', 4, syntaxOf('a.ts')).map((w) => w.text)).toEqual(['dieHard']);
  });

  test('closest to a place: lines apart, then columns apart; at most five', () => {
    const near = nearestToPlace(identifiersNear(lines, 4), 4, 1).map((w) => `${w.line}:${w.text}`);
    expect(near).toEqual(['4:shapes', '4:Shape', '4:Circle', '4:Radius', '5:fmt']);
  });

  test('a column is on no name on whitespace, punctuation or past the end, unless a name ends just before it', () => {
    expect(onNoName('\tfoo bar', 1)).toBe(true);
    expect(onNoName('\tfoo bar', 2)).toBe(false);
    expect(onNoName('\tfoo bar', 5)).toBe(false); // the end of foo
    expect(onNoName('\tfoo  bar', 6)).toBe(true);
    expect(onNoName('\tfoo (bar', 6)).toBe(true);
    expect(onNoName('', 1)).toBe(true);
  });
});
