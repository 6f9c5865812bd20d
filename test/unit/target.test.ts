import { describe, expect, test } from 'bun:test';
import { LspqError } from '../../src/common/errors';
import { findWord, parseLineTarget, parseTarget } from '../../src/common/target';

const CWD = '/home/u/project';

function error(fn: () => unknown): LspqError {
  try {
    fn();
  } catch (err) {
    if (err instanceof LspqError) return err;
    throw err;
  }
  throw new Error('expected an LspqError');
}

describe('parseTarget', () => {
  test('FILE:LINE:COL', () => {
    expect(parseTarget('src/a.ts:12:5', CWD)).toEqual({
      kind: 'position',
      path: '/home/u/project/src/a.ts',
      line: 12,
      column: 5,
    });
  });
  test('FILE:LINE:NAME with --nth', () => {
    expect(parseTarget('src/a.ts:3:render', CWD, 2)).toEqual({
      kind: 'name',
      path: '/home/u/project/src/a.ts',
      line: 3,
      name: 'render',
      nth: 2,
    });
  });
  test('absolute paths stay absolute', () => {
    expect(parseTarget('/abs/x.go:1:1', CWD)).toMatchObject({ path: '/abs/x.go' });
  });
  test('a path that itself contains a colon', () => {
    expect(parseTarget('dir:odd/a.ts:2:3', CWD)).toMatchObject({
      path: '/home/u/project/dir:odd/a.ts',
      line: 2,
      column: 3,
    });
  });
  test('a non-ASCII NAME', () => {
    expect(parseTarget('m.py:7:名前', CWD)).toMatchObject({ kind: 'name', name: '名前' });
  });
  test('line 0 is bad input (exit 2)', () => {
    const e = error(() => parseTarget('a.ts:0:1', CWD));
    expect(e.exit).toBe(2);
    expect(e.message).toContain('count from 1');
  });
  test('FILE:LINE: the line, its one name found against the text', () => {
    expect(parseTarget('src/a.ts:12', CWD)).toEqual({ kind: 'line', path: '/home/u/project/src/a.ts', line: 12 });
    expect(error(() => parseTarget('a.ts:0', CWD)).message).toContain('count from 1');
  });
  test('no line at all is bad input with the forms spelled out', () => {
    const e = error(() => parseTarget('a.ts', CWD));
    expect(e.exit).toBe(2);
    expect(e.message).toContain('FILE:LINE:COL');
  });
});

describe('parseLineTarget', () => {
  test('FILE:LINE and FILE:START-END', () => {
    expect(parseLineTarget('a.ts:4', CWD)).toEqual({ path: '/home/u/project/a.ts', startLine: 4, endLine: 4 });
    expect(parseLineTarget('a.ts:4-9', CWD)).toEqual({ path: '/home/u/project/a.ts', startLine: 4, endLine: 9 });
  });
  test('a range that ends before it starts', () => {
    expect(error(() => parseLineTarget('a.ts:9-4', CWD)).exit).toBe(2);
  });
});

describe('findWord', () => {
  test('whole words only', () => {
    expect(findWord('total totalArea total', 'total')).toEqual([0, 16]);
  });
  test('columns count code points', () => {
    expect(findWord("名前 = '🎉'; f(x)", 'f')).toEqual([10]);
  });
  test('operators match anywhere', () => {
    expect(findWord('a + b + c', '+')).toEqual([2, 6]);
  });
});

describe('paths without node:path', () => {
  const { normalizePath, resolvePath, relativePath, dirnameOf, joinPath } =
    require('../../src/common/paths') as typeof import('../../src/common/paths');
  test.each([
    ['/a/b/../c/./d', '/a/c/d'],
    ['/../x', '/x'],
    ['a/../../b', '../b'],
    ['./', '.'],
    ['/', '/'],
  ])('normalize %s', (input, out) => expect(normalizePath(input)).toBe(out));
  test('resolve, join, dirname, relative', () => {
    expect(resolvePath('/home/u', 'src/../lib/a.ts')).toBe('/home/u/lib/a.ts');
    expect(resolvePath('/home/u', '/etc/x')).toBe('/etc/x');
    expect(joinPath('/a', 'b/', '/c')).toBe('/a/b/c');
    expect(dirnameOf('/a/b/c.ts')).toBe('/a/b');
    expect(dirnameOf('/a')).toBe('/');
    expect(relativePath('/p/q', '/p/q/src/a.ts')).toBe('src/a.ts');
    expect(relativePath('/p/q', '/p/r/a.ts')).toBe('../r/a.ts');
    expect(relativePath('/p/q', '/p/q')).toBe('');
  });
});
