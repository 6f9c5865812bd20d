/** Which words of a line are code, and which are in a comment or a string, by the file's language. Pure. */
import { describe, expect, test } from 'bun:test';
import { type Kind, kindAt, syntaxOf } from '../../src/lsp/lexical';

/** The kind at the first character of `word` on line `line` (1-based) of `text`. */
const kindOf = (path: string, text: string, line: number, word: string, nth = 1) => {
  const lineText = text.split('\n')[line - 1]!;
  let at = -1;
  for (let k = 0; k < nth; k++) at = lineText.indexOf(word, at + 1);
  return kindAt(text, line, Array.from(lineText.slice(0, at)).length + 1, syntaxOf(path)!);
};

describe('kindAt', () => {
  test('Go: a // comment, a block comment over lines, a raw string, code after them', () => {
    const go =
      'package main\n// Command runs\nfunc Command() {} /* a\nCommand */ var x = `Command\nCommand` + Command\n';
    expect(kindOf('a.go', go, 2, 'Command')).toBe('comment');
    expect(kindOf('a.go', go, 3, 'Command')).toBe('code');
    expect(kindOf('a.go', go, 4, 'Command')).toBe('comment');
    expect(kindOf('a.go', go, 4, 'Command', 2)).toBe('string');
    expect(kindOf('a.go', go, 5, 'Command')).toBe('string');
    expect(kindOf('a.go', go, 5, 'Command', 2)).toBe('code');
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source, its ${} a template's
  test('TypeScript: a template literal with ${code}, an escaped quote, a URL in a string is no comment', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source, its ${} a template's
    const ts = "const s = `a ${helper(1)} helper`;\nconst t = 'it\\'s helper // not a comment'; helper();\n";
    expect(kindOf('a.ts', ts, 1, 'helper')).toBe('code');
    expect(kindOf('a.ts', ts, 1, 'helper', 2)).toBe('string');
    expect(kindOf('a.ts', ts, 2, 'helper')).toBe('string');
    expect(kindOf('a.ts', ts, 2, 'helper', 2)).toBe('code');
  });

  test('Python: # comments, triple quotes over lines, f-strings whose {braces} are code', () => {
    const py = 'x = 1  # total here\ns = """total\ntotal"""\nf"{total(1)} total"\nr"\\d total"; total\n';
    expect(kindOf('a.py', py, 1, 'total')).toBe('comment');
    expect(kindOf('a.py', py, 2, 'total')).toBe('string');
    expect(kindOf('a.py', py, 3, 'total')).toBe('string');
    expect(kindOf('a.py', py, 4, 'total')).toBe('code');
    expect(kindOf('a.py', py, 4, 'total', 2)).toBe('string');
    expect(kindOf('a.py', py, 5, 'total', 2)).toBe('code');
  });

  test('far down a file, and asked again: what opened lines before (a comment, a template, code in it) still counts', () => {
    // Lines 1-59 code; a block comment over 60-70; a template literal with ${...} code from line 125 to 131; asked
    // in every order, twice, so a remembered point of the file (every 16 lines) must carry what is open across it.
    const lines = Array.from({ length: 200 }, (_, i) => `const v${i + 1} = name;`);
    lines[59] = '/* opens name';
    lines[69] = 'name closes */ const after = name;';
    lines[124] = 'const t = `name ${';
    lines[127] = 'name';
    lines[130] = '} name`; const z = name;';
    const ts = lines.join('\n');
    const asked: [number, number, Kind][] = [
      [199, 1, 'code'],
      [65, 1, 'comment'],
      [70, 1, 'comment'],
      [70, 3, 'code'],
      [128, 1, 'code'],
      [131, 1, 'string'],
      [131, 2, 'code'],
      [3, 1, 'code'],
    ];
    for (const round of [1, 2])
      for (const [line, nth, kind] of asked)
        expect([round, line, nth, kindOf('far.ts', ts, line, 'name', nth)]).toEqual([round, line, nth, kind]);
  });

  test("Rust: a lifetime's quote opens no string", () => {
    const rs = "fn f<'a>(x: &'a str) -> &'a str { helper(x) }\n";
    expect(kindOf('a.rs', rs, 1, 'helper')).toBe('code');
  });

  test('data files have no syntax: a JSON key is a name', () => {
    expect(syntaxOf('package.json')).toBeUndefined();
  });
});
