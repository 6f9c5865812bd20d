import { describe, expect, test } from 'bun:test';
import { LspqError } from '../../src/common/errors';
import { findPattern, findWord, targetPath, namesPlace, parseLineTarget, parseTarget } from '../../src/common/target';

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
    expect(e.message).toContain('counted from 1');
  });
  test('FILE:LINE: the line, its one name found against the text', () => {
    expect(parseTarget('src/a.ts:12', CWD)).toEqual({ kind: 'line', path: '/home/u/project/src/a.ts', line: 12 });
    expect(error(() => parseTarget('a.ts:0', CWD)).message).toContain('counted from 1');
  });
  test('FILE:LINE:TEXT<|>TEXT: a text pattern, whatever NAME and COL could be', () => {
    expect(parseTarget('src/a.ts:3:c.<|>r * c.r', CWD)).toEqual({
      kind: 'pattern',
      path: '/home/u/project/src/a.ts',
      line: 3,
      before: 'c.',
      after: 'r * c.r',
      nth: 1,
    });
    // With no space or colon it would be a NAME; with digits a COL: the marker decides first.
    expect(parseTarget('a.ts:3:<|>x', CWD, 2)).toMatchObject({ kind: 'pattern', before: '', after: 'x', nth: 2 });
    expect(parseTarget('a.ts:3:f(a:<|>b)', CWD)).toMatchObject({ kind: 'pattern', line: 3, before: 'f(a:' });
    expect(error(() => parseTarget('a.ts:3:<|>', CWD)).message).toContain('only the marker');
    expect(error(() => parseTarget('a.ts:3:a<|>b<|>c', CWD)).message).toContain('more than once');
  });
  test('a line lspq printed, fed back whole: its place', () => {
    expect(parseTarget('src/a.ts:12:5: return x.y  (in Foo.bar)', CWD)).toEqual({
      kind: 'position',
      path: '/home/u/project/src/a.ts',
      line: 12,
      column: 5,
    });
  });
  test('which targets name a place rather than lines (actions)', () => {
    expect(['a.ts:1:2', 'a.ts:1:x', 'a.ts:1:2: text', 'a.ts:1:f(<|>x)'].map(namesPlace)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['a.ts:1', 'a.ts:1-4'].map(namesPlace)).toEqual([false, false]);
  });
  test('a FILE that is there, then a line or column that is no place: that part named, with the forms', () => {
    const there = (path: string) => path === '/home/u/project/main.go';
    const forms =
      "a target is FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or 'FILE:LINE:TEXT<|>TEXT', lines and columns counted from 1, or --symbol NAME";
    const said = (raw: string) => error(() => parseTarget(raw, CWD, 1, there));
    expect(said('main.go:x:1').message).toBe(`the line in 'main.go:x:1' is 'x', not a number; ${forms}`);
    expect(said('main.go:x:1').exit).toBe(2);
    expect(said('main.go:-1:1').message).toBe(`the line in 'main.go:-1:1' is -1; ${forms}`);
    expect(said('main.go:0:1').message).toBe(`the line in 'main.go:0:1' is 0; ${forms}`);
    expect(said('main.go:x').message).toBe(`the line in 'main.go:x' is 'x', not a number; ${forms}`);
    expect(said('main.go:7:0').message).toBe(`the column in 'main.go:7:0' is 0; ${forms}`);
    expect(said('main.go:7:-1').message).toBe(`the column in 'main.go:7:-1' is -1; ${forms}`);
    expect(said('main.go:7:1.5').message).toBe(`the column in 'main.go:7:1.5' is '1.5', not a number; ${forms}`);
    // Without the disk, the same column errors: no name starts with a digit or a sign before one.
    expect(error(() => parseTarget('main.go:7:-1', CWD)).message).toBe(`the column in 'main.go:7:-1' is -1; ${forms}`);
  });
  test('a path holding a colon, when that file is there, is read as it is', () => {
    const there = (path: string) => path === '/home/u/project/main.go' || path === '/home/u/project/main.go:x';
    expect(parseTarget('main.go:x:1', CWD, 1, there)).toEqual({
      kind: 'line',
      path: '/home/u/project/main.go:x',
      line: 1,
    });
    expect(parseTarget('main.go:x:3:5', CWD, 1, there)).toMatchObject({ path: '/home/u/project/main.go:x', line: 3 });
  });
  test('a line target: the bad line or end named, with its forms', () => {
    const there = (path: string) => path === '/home/u/project/main.go';
    const forms = 'a line target is FILE:LINE or FILE:START-END, lines counted from 1';
    expect(error(() => parseLineTarget('main.go:x', CWD, there)).message).toBe(
      `the line in 'main.go:x' is 'x', not a number; ${forms}`,
    );
    expect(error(() => parseLineTarget('main.go:3-x', CWD, there)).message).toBe(
      `the end line in 'main.go:3-x' is 'x', not a number; ${forms}`,
    );
    expect(error(() => parseLineTarget('main.go:0', CWD, there)).message).toBe(
      `the line in 'main.go:0' is 0; ${forms}`,
    );
  });
  test('no line at all is bad input with the forms spelled out', () => {
    const e = error(() => parseTarget('a.ts', CWD));
    expect(e.exit).toBe(2);
    expect(e.message).toContain('FILE:LINE:COL');
  });
});

describe('findPattern', () => {
  test('the places of the marker, in code points, overlapping ones too', () => {
    expect(findPattern('return math.Pi * c.Radius * c.Radius', 'c.', 'Radius')).toEqual([19, 30]);
    expect(findPattern('return math.Pi * c.Radius * c.Radius', 'Radius * c.', 'Radius')).toEqual([30]);
    expect(findPattern('名前 := f(名前)', 'f(', '名前')).toEqual([8]);
    expect(findPattern('aaa', 'a', 'a')).toEqual([1, 2]);
    expect(findPattern('x(a.b)', '', 'a.b')).toEqual([2]);
  });
  test('a run of spaces in the pattern matches any run of blanks; other text literally', () => {
    expect(findPattern('\treturn\t\tmath', 'return ', 'math')).toEqual([9]);
    expect(findPattern('a.b(c)', 'a.', 'b(c)')).toEqual([2]);
    expect(findPattern('a.b(c)', 'a', 'b')).toEqual([]);
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
  test('a name beside a character outside the BMP, and overlapping places', () => {
    expect(findWord('🎉x x𝑥 x', 'x')).toEqual([1, 6]);
    expect(findWord('aaa', 'aa')).toEqual([]);
    expect(findWord('+++', '++')).toEqual([0, 1]);
  });
  test('an 8 MB line: found without splitting it into characters', () => {
    const line = `const x = 1; ${'(/['.repeat(2_800_000)} x`;
    const started = performance.now();
    expect(findWord(line, 'x')).toEqual([6, line.length - 1]);
    expect(performance.now() - started).toBeLessThan(300);
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

describe('targetPath: the file as the command reads it', () => {
  test('the whole of FILE up to the last :LINE:NAME, as parseTarget reads it', () => {
    const raw = 'app.ts:1:/../../outside/use.ts:2:twice';
    expect(targetPath(raw)).toBe('app.ts:1:/../../outside/use.ts');
    expect(parseTarget(raw, '/w/p')).toMatchObject({ path: '/w/outside/use.ts', line: 2, name: 'twice' });
  });
  test('lines and places', () => {
    expect([targetPath('a.ts:3'), targetPath('a.ts:3-5'), targetPath('a.ts:3:7'), targetPath('a.ts')]).toEqual([
      'a.ts',
      'a.ts',
      'a.ts',
      undefined,
    ]);
  });
});
