/** grep's conventions for code around the answer: context lines, merged windows, `--` between groups. */
import { describe, expect, test } from 'bun:test';
import { type Placed, placedLines, withExcerpts } from '../../src/render/placed-lines';

const at = (path: string, line: number, first: number, lines: string[]): Placed => ({
  path,
  line,
  text: `${path}:${line}:1: hit ${line}`,
  context: { line: first, lines },
});

describe('context in grep -n form', () => {
  test("a place's own line as rendered, the others as path-LINE-text", () => {
    expect(withExcerpts([at('a.go', 3, 2, ['two', 'three', 'four'])])).toBe(
      'a.go-2-two\na.go:3:1: hit 3\na.go-4-four\n',
    );
  });

  test('windows of one file that touch or overlap merge; others are set apart by --', () => {
    const places = [
      at('a.go', 2, 1, ['one', 'two', 'three']),
      at('a.go', 4, 3, ['three', 'four', 'five']),
      at('a.go', 9, 8, ['eight', 'nine', 'ten']),
      at('b.go', 1, 1, ['uno', 'dos']),
    ];
    expect(withExcerpts(places).split('\n')).toEqual([
      'a.go-1-one',
      'a.go:2:1: hit 2',
      'a.go-3-three',
      'a.go:4:1: hit 4',
      'a.go-5-five',
      '--',
      'a.go-8-eight',
      'a.go:9:1: hit 9',
      'a.go-10-ten',
      '--',
      'b.go:1:1: hit 1',
      'b.go-2-dos',
      '',
    ]);
  });

  test('two places on one line both print, once each; a place above the last starts a new group (tree order)', () => {
    const same = [at('a.go', 2, 1, ['one', 'two']), { ...at('a.go', 2, 1, ['one', 'two']), text: 'a.go:2:7: other' }];
    expect(withExcerpts(same)).toBe('a.go-1-one\na.go:2:1: hit 2\na.go:2:7: other\n');
    const tree = [at('a.go', 5, 5, ['five']), at('a.go', 2, 2, ['two'])];
    expect(withExcerpts(tree)).toBe('a.go:5:1: hit 5\n--\na.go:2:1: hit 2\n');
  });

  test('a body is the window: the location line in its place, a line past a cut body not invented; -- ends it', () => {
    const body: Placed = {
      path: 'g.go',
      line: 17,
      text: 'g.go:17:6: func F() {',
      body: { line: 16, endLine: 30, text: '// F does it.\nfunc F() {\n\treturn', truncated: true },
    };
    expect(withExcerpts([body])).toBe('g.go-16-// F does it.\ng.go:17:6: func F() {\ng.go-18-\treturn\n--\n');
  });

  test('without context or body the answer is its plain lines', () => {
    expect(placedLines([{ path: 'a.go', line: 1, text: 'a.go:1:1: x' }])).toBe('a.go:1:1: x\n');
    expect(placedLines([])).toBe('');
  });
});
