import { describe, expect, test } from 'bun:test';
import { codeName, type Declared, enclosingSymbol } from '../../src/engine/enclosing';

const span = (line: number, column: number, endLine: number, endColumn: number) => ({
  line,
  column,
  endLine,
  endColumn,
});
const symbol = (
  name: string,
  kind: string,
  range: ReturnType<typeof span>,
  selection: ReturnType<typeof span>,
  children: Declared[] = [],
): Declared => ({ name, kind, range, selection, children });

// class Circle { radius = make(); area() { const r = this.radius; return helper(r); } }
// function top() { use(); }  const handler = () => { ... }
const tree: Declared[] = [
  symbol('Circle', 'class', span(1, 1, 10, 2), span(1, 7, 1, 13), [
    symbol('radius', 'property', span(2, 3, 2, 20), span(2, 3, 2, 9)),
    symbol('area', 'method', span(3, 3, 6, 4), span(3, 3, 3, 7), [
      symbol('r', 'variable', span(4, 5, 4, 30), span(4, 11, 4, 12)),
    ]),
  ]),
  symbol('top', 'function', span(12, 1, 14, 2), span(12, 10, 12, 13)),
  symbol('handler', 'constant', span(16, 1, 18, 3), span(16, 7, 16, 14)),
];

describe('the symbol a place sits in', () => {
  test.each([
    ['in a method, inside a local: the method, qualified by its class', 4, 20, { name: 'Circle.area', kind: 'method' }],
    ['in a method body', 5, 12, { name: 'Circle.area', kind: 'method' }],
    ['at a method name: the class', 3, 4, { name: 'Circle', kind: 'class' }],
    ['in a field of a class, past its name', 2, 15, { name: 'Circle.radius', kind: 'property' }],
    ['at a field name: the class', 2, 8, { name: 'Circle', kind: 'class' }],
    ['in a top-level function', 13, 3, { name: 'top', kind: 'function' }],
    ['in a top-level value (an arrow function)', 17, 5, { name: 'handler', kind: 'constant' }],
  ] as const)('%s', (_what, line, column, expected) => {
    expect(enclosingSymbol(tree, line, column)).toEqual(expected);
  });

  test('outside every symbol, or at a top-level name: none', () => {
    expect(enclosingSymbol(tree, 11, 1)).toBeUndefined();
    expect(enclosingSymbol(tree, 12, 11)).toBeUndefined();
  });

  test('one statement naming several (an import of two names): in neither', () => {
    const imports = [
      symbol('Shape', 'class', span(1, 1, 1, 37), span(1, 26, 1, 31)),
      symbol('Unit', 'variable', span(1, 1, 1, 37), span(1, 33, 1, 37)),
    ];
    expect(enclosingSymbol(imports, 1, 26)).toBeUndefined();
    expect(enclosingSymbol(imports, 1, 33)).toBeUndefined();
  });

  test('a flat answer: the container it names qualifies', () => {
    const flat: Declared[] = [{ ...symbol('area', 'method', span(3, 3, 6, 4), span(3, 3, 3, 3)), container: 'Circle' }];
    expect(enclosingSymbol(flat, 5, 1)).toEqual({ name: 'Circle.area', kind: 'method' });
  });

  test('names as code writes them: Go receivers, Rust impls', () => {
    expect(codeName('(Circle).Area')).toBe('Circle.Area');
    expect(codeName('(*Circle).Area')).toBe('Circle.Area');
    expect(codeName('impl Shape for Circle')).toBe('Circle');
    expect(codeName('impl<T> Display for Wrapper<T>')).toBe('Wrapper');
    expect(codeName('impl Circle')).toBe('Circle');
    expect(codeName('area_of')).toBe('area_of');
    // A Go method found inside nothing keeps its receiver; it is not qualified twice.
    const go = [symbol('(Circle).Area', 'method', span(9, 1, 11, 2), span(9, 17, 9, 21))];
    expect(enclosingSymbol(go, 10, 5)).toEqual({ name: 'Circle.Area', kind: 'method' });
  });
});
