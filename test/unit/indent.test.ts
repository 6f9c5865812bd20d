import { describe, expect, test } from 'bun:test';
import { detectIndentation } from '../../src/lsp/indent';

describe("a file's own indentation", () => {
  test('tabs when more indented lines start with a tab', () => {
    expect(detectIndentation('function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n')).toEqual({
      insertSpaces: false,
      tabSize: 4,
    });
  });

  test('spaces, the width the most common step (2 and 4), doc comments not counted', () => {
    expect(detectIndentation('a {\n  b {\n    c;\n  }\n}\n')).toEqual({ insertSpaces: true, tabSize: 2 });
    expect(detectIndentation('def f():\n    if x:\n        return 1\n    return 2\n')).toEqual({
      insertSpaces: true,
      tabSize: 4,
    });
    expect(detectIndentation('/**\n * doc\n */\nf {\n  x;\n  y;\n}\n')).toEqual({ insertSpaces: true, tabSize: 2 });
  });

  test('too few indented lines to say: nothing', () => {
    expect(detectIndentation('x = 1\ny = 2\n')).toBeUndefined();
  });
});
