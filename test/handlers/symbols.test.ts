/** symbols' handler through the typed seam: a file's outline, from a server that answers what the test canned. */
import { afterAll, expect, test } from 'bun:test';
import { FakeSession } from '../helpers/fake-session';

const range = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});
const OUTLINE = [
  {
    name: 'Shape',
    kind: 5,
    range: range(0, 0, 14),
    selectionRange: range(0, 6, 11),
    children: [{ name: 'area', kind: 6, range: range(1, 2, 12), selectionRange: range(1, 2, 6) }],
  },
  { name: 'main', kind: 12, range: range(3, 0, 9), selectionRange: range(3, 3, 7) },
];
const session = new FakeSession(
  { capabilities: { documentSymbolProvider: true }, answers: { 'textDocument/documentSymbol': OUTLINE } },
  { 'a.fake': 'class Shape {\n  area() {}\n}\nfn main()\n' },
);
afterAll(() => session.close());

test("the answer: the server's tree, kinds named, each at its name (the selection range) in 1-based columns", async () => {
  const answer = await session.ask({ op: 'symbols', path: `${session.dir}/a.fake` });
  const brief = (s: (typeof answer.symbols)[number]): unknown => ({
    name: s.name,
    kind: s.kind,
    at: `${s.line}:${s.column}-${s.endLine}:${s.endColumn}`,
    children: s.children.map(brief),
  });
  expect({ ...answer, symbols: answer.symbols.map(brief) }).toEqual({
    path: `${session.dir}/a.fake`,
    server: 'fake',
    root: session.dir,
    symbols: [
      {
        name: 'Shape',
        kind: 'class',
        at: '1:7-1:12',
        children: [{ name: 'area', kind: 'method', at: '2:3-2:7', children: [] }],
      },
      { name: 'main', kind: 'function', at: '4:4-4:8', children: [] },
    ],
    total: 3,
    truncated: false,
  });
});

test('the command line: each symbol at its name, with its kind, nested ones indented under their parent', async () => {
  expect(await session.run(['symbols', 'a.fake'])).toEqual({
    stdout: 'a.fake:1:7: class Shape\na.fake:2:3:   method area\na.fake:4:4: function main\n',
    exit: 0,
  });
});

test('--kind function: only those', async () => {
  expect(await session.run(['symbols', 'a.fake', '--kind', 'function'])).toEqual({
    stdout: 'a.fake:4:4: function main\n',
    exit: 0,
  });
});
