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

  test("Vue: a directive's and a binding's value, {{ }}, v-for and @event are code; text and plain attributes are not", () => {
    const vue = [
      '<script setup lang="ts">',
      "const total = ref(1); // total's count",
      '</script>',
      '',
      '<template>',
      '  <p :class="{ big: total > 1 }" v-if="total" class="total">Don\'t total {{ total }}</p>',
      '  <li v-for="item in total" :key="item" @click="total++" v-on:keyup="total--">{{ \'total\' }}</li>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is a Vue template, its ${} a template literal's
      '  <Child v-bind:title="`${total} left`" :label=\'"x" + total\' title=\'total\' #default="{ total }" />',
      '  <!-- total -->',
      '</template>',
      '',
      '<style scoped>',
      '.total { color: red } /* total */',
      '</style>',
    ].join('\n');
    const at = (line: number, nth: number) => kindOf('App.vue', vue, line, 'total', nth);
    expect([at(2, 1), at(2, 2)]).toEqual(['code', 'comment']);
    // :class, v-if: code; class="total": a string; "Don't" opens no string; {{ total }}: code.
    expect([at(6, 1), at(6, 2), at(6, 3), at(6, 4), at(6, 5)]).toEqual(['code', 'code', 'string', 'text', 'code']);
    expect([at(7, 1), at(7, 2), at(7, 3), at(7, 4)]).toEqual(['code', 'code', 'code', 'string']);
    expect([at(8, 1), at(8, 2), at(8, 3), at(8, 4)]).toEqual(['code', 'code', 'string', 'code']);
    expect(kindOf('App.vue', vue, 8, 'left')).toBe('string');
    expect(at(9, 1)).toBe('comment');
    expect([at(13, 1), at(13, 2)]).toEqual(['code', 'comment']);
    expect(kindOf('App.vue', vue, 6, 'class', 2)).toBe('code');
  });

  test("Svelte: braces in text, in attributes and inside an attribute's quotes are code; the rest of the quotes is not", () => {
    const svelte = [
      '<script lang="ts">',
      "  let flag = $state(true); // flag's",
      '</script>',
      '',
      "<p class=\"base {flag ? 'on' : 'off'} flag\" onclick={() => (flag = !flag)} {flag}>It's flag {flag} {#if flag}flag{/if}</p>",
      '<style>',
      '  .flag { color: red; }',
      '</style>',
    ].join('\n');
    const at = (nth: number) => kindOf('C.svelte', svelte, 5, 'flag', nth);
    expect([kindOf('C.svelte', svelte, 2, 'flag', 1), kindOf('C.svelte', svelte, 2, 'flag', 2)]).toEqual([
      'code',
      'comment',
    ]);
    // class="base {flag ? 'on' : 'off'} flag": the braces' flag is code, the quoted text's a string; then the handler's.
    expect([at(1), at(2), at(3), at(4), at(5)]).toEqual(['code', 'string', 'code', 'code', 'code']);
    // "It's flag {flag} {#if flag}flag{/if}": text, code, code, text.
    expect([at(6), at(7), at(8), at(9)]).toEqual(['text', 'code', 'code', 'text']);
    expect(kindOf('C.svelte', svelte, 5, "'on'")).toBe('string');
    expect(kindOf('C.svelte', svelte, 7, 'flag')).toBe('code');
  });

  test("JSX: an element's text is no string (its quotes open none), its {...} and attributes' braces are code; a comparison and a type argument are no element", () => {
    const tsx = [
      'export function App({ total }: { total: number }) {',
      '  const big = total < 10 ? useState<number>(total) : total;',
      '  return (',
      "    <p className=\"total\" title={total > 1 ? 'many' : 'one'}>",
      "      Don't count {total} <b>total's</b> {/* total */}",
      '    </p>',
      '  );',
      '}',
      'const pick = <T,>(x: T) => x; const total2 = pick(total);',
      'const gen = <T extends object>(x: T) => x; const also = gen(total);',
    ].join('\n');
    const at = (line: number, nth: number) => kindOf('App.tsx', tsx, line, 'total', nth);
    expect([at(2, 1), at(2, 2), at(2, 3)]).toEqual(['code', 'code', 'code']);
    expect([at(4, 1), at(4, 2)]).toEqual(['string', 'code']);
    expect(kindOf('App.tsx', tsx, 4, 'many')).toBe('string');
    expect([at(5, 1), at(5, 2), at(5, 3)]).toEqual(['code', 'text', 'comment']);
    expect(kindOf('App.tsx', tsx, 5, 'count')).toBe('text');
    expect(at(9, 1)).toBe('code');
    expect(at(10, 1)).toBe('code');
    // .ts has casts, not elements: `<number>total` is code either way.
    expect(kindOf('a.ts', 'const n = <number>total;\n', 1, 'total')).toBe('code');
  });

  test('data files have no syntax: a JSON key is a name', () => {
    expect(syntaxOf('package.json')).toBeUndefined();
  });
});

describe('hostile lines: the scan is linear, and a long line is not scanned', () => {
  // Each held the daemon's one thread: every `/` searched to the line's end, every string walked the stack.
  const timed = (text: string, line: number) => {
    const started = performance.now();
    const kind = kindAt(text, line, 1, syntaxOf('a.ts')!);
    return { kind, ms: performance.now() - started };
  };
  for (const unit of ['(/[', '`${', '(/\\/']) {
    test(`lines of ${JSON.stringify(unit)} just under the long-line bound, ten of them`, () => {
      const line = unit.repeat(Math.floor(19_000 / unit.length));
      const { ms } = timed(`${line}\n`.repeat(10), 10);
      expect(ms).toBeLessThan(3_000); // quadratic, each line took 18 s
    });
  }
  test('an 8 MB line: its characters are code, found without scanning it', () => {
    const { kind, ms } = timed(`// ${'x '.repeat(4_000_000)}\nconst y = 1;\n`, 1);
    expect(kind).toBe('code');
    expect(ms).toBeLessThan(500);
  });
  test('a regular expression after a failed search on the same line is still found', () => {
    // The first `/` opens no literal (its class never closes); the one after `=` does.
    const text = 'a = (/[x;\nb = /y/ + "s";\nc = (/[ ; d = /z/; e = "str";\n';
    expect(kindOf('a.ts', text, 2, 'y')).toBe('string');
    expect(kindOf('a.ts', text, 3, 'str')).toBe('string');
    expect(kindOf('a.ts', text, 3, 'e')).toBe('code');
  });
});
