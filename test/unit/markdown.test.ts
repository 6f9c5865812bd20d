/** Documentation markdown cleaned for reading (src/render/markdown.ts): prose tidied, code exactly as written. */
import { describe, expect, test } from 'bun:test';
import { cleanMarkdown } from '../../src/render/markdown';

describe('cleanMarkdown', () => {
  test("pyright's &nbsp; indentation as spaces, the hard breaks' trailing blanks cut", () => {
    expect(
      cleanMarkdown(
        'Args:  \n&nbsp;&nbsp;&nbsp;&nbsp;inst:  \n&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;Instance of a class.',
      ),
    ).toBe('Args:\n    inst:\n        Instance of a class.');
  });

  test('named and numeric entities decoded once; unknown ones and bare ampersands kept', () => {
    expect(cleanMarkdown('a &lt;T&gt; &amp;lt; &#39;x&#39; &#x41; &#160;b &bogus; R&D')).toBe(
      "a <T> &lt; 'x' A  b &bogus; R&D",
    );
  });

  test('code kept exactly: a fenced block (blank lines, entities, trailing blanks) and inline spans', () => {
    const block = '```go\ntype T struct {\n\ta int\n\n\n\tb &nbsp; int  \n}\n```';
    expect(cleanMarkdown(`${block}\n\nuse \`&lt;T&gt;\` or &lt;T&gt;, \`\`a \` &amp; b\`\``)).toBe(
      `${block}\n\nuse \`&lt;T&gt;\` or <T>, \`\`a \` &amp; b\`\``,
    );
  });

  test('runs of blank lines made one; none at the start or the end', () => {
    expect(cleanMarkdown('\n\nfirst\n\n\n\nsecond\n\n\n')).toBe('first\n\nsecond');
  });

  test('a rule separates two things: none at the start, the end, or beside another', () => {
    expect(cleanMarkdown('---\n```py\nx: int\n```\n---\n\n---\ndocs\n\n***\n')).toBe('```py\nx: int\n```\n---\n\ndocs');
    // Under a line of text, --- underlines a heading: it stays.
    expect(cleanMarkdown('Title\n---\nbody')).toBe('Title\n---\nbody');
  });

  test('an empty code block and the rule it leaves alone are dropped', () => {
    expect(cleanMarkdown('```python\n```\n---\nDocs.')).toBe('Docs.');
  });

  test('a heading with nothing under it before the next as high, a rule or the end is dropped', () => {
    expect(cleanMarkdown('# A\n\n## Empty\n\n## Full\ntext\n\n## Last\n\n---\n\n# B\nb\n\n### Also empty\n')).toBe(
      '# A\n\n## Full\ntext\n\n---\n\n# B\nb',
    );
    // A section holding only empty ones is empty in turn.
    expect(cleanMarkdown('text\n\n# B\n\n### Empty\n')).toBe('text');
  });

  test('a fence never closed runs to the end, kept as it is', () => {
    expect(cleanMarkdown('text\n```\ncode &lt;\n\n\n')).toBe('text\n```\ncode &lt;\n\n\n');
  });
});
