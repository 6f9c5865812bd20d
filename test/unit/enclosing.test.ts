import { describe, expect, test } from 'bun:test';
import {
  callablesWithin,
  codeName,
  type Declared,
  declaredAt,
  enclosingSymbol,
  implType,
} from '../../src/engine/enclosing';

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
    // anyhow's `impl NotBothDebug for &(A, B)`: a tuple's comma is no end of the type.
    expect(codeName('impl NotBothDebug for &(A, B)')).toBe('&(A, B)');
    expect(codeName('impl BothDebug for (A, B)')).toBe('(A, B)');
    // A Go method found inside nothing keeps its receiver; it is not qualified twice.
    const go = [symbol('(Circle).Area', 'method', span(9, 1, 11, 2), span(9, 17, 9, 21))];
    expect(enclosingSymbol(go, 10, 5)).toEqual({ name: 'Circle.Area', kind: 'method' });
  });
});

describe('the code declared at a place (a call item), and the functions declared in it', () => {
  // function outer() { function inner() { ... } const f = 1; }
  const inner = symbol('inner', 'function', span(21, 3, 23, 4), span(21, 12, 21, 17));
  const outer = symbol('outer', 'function', span(20, 1, 25, 2), span(20, 10, 20, 15), [
    inner,
    symbol('f', 'constant', span(24, 3, 24, 15), span(24, 9, 24, 10)),
  ]);
  const all = [...tree, outer];

  test.each([
    ['a method by its name', 3, 4, 'area'],
    ['a nested function by its name: the innermost', 21, 13, 'inner'],
    ['a top-level function by its name', 12, 11, 'top'],
  ] as const)('%s', (_what, line, column, name) => {
    expect(declaredAt(all, line, column)?.name).toBe(name);
  });

  test.each([
    ['a class name: no code that runs', 1, 8],
    ['inside a body, not at a name', 5, 12],
    ['a constant holding an arrow function (a value, not a declaration of code)', 16, 8],
  ] as const)('none at %s', (_what, line, column) => {
    expect(declaredAt(all, line, column)).toBeUndefined();
  });

  test('the functions declared inside one, at any depth; its values left out', () => {
    expect(callablesWithin(outer).map((s) => s.name)).toEqual(['inner']);
    expect(callablesWithin(tree[0]!).map((s) => s.name)).toEqual(['area']);
  });
});

describe('implType', () => {
  test('the type an impl is for, whole, its generic arguments at the top dropped', () => {
    expect(
      [
        'impl NotBothDebug for &(A, B)',
        'impl<A, B> NotBothDebug for &(A, B)',
        'impl<T: Into<U>, U> From<T> for Wrapper<T, U>',
        "impl<'a> Display for &'a str",
        'impl<T, const N: usize> Debug for [T; N]',
        'impl<F> Handler for Box<dyn Fn(A, B) -> C>',
        'impl<T> Trait for (Vec<T>, HashMap<K, V>) where T: Clone',
        'impl fmt::Display for error::Error',
        'impl Buf',
      ].map(implType),
    ).toEqual([
      '&(A, B)',
      '&(A, B)',
      'Wrapper',
      "&'a str",
      '[T; N]',
      'Box',
      '(Vec<T>, HashMap<K, V>)',
      'error::Error',
      'Buf',
    ]);
  });

  test('a name that is no impl', () => {
    expect(['implement', 'area_of', 'impl'].map(implType)).toEqual([undefined, undefined, undefined]);
  });
});
