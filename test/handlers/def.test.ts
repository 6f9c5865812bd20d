/** def's and refs' handlers through the typed seam, on a server that answers what the test canned. */
import { afterAll, expect, test } from 'bun:test';
import { FakeSession } from '../helpers/fake-session';

const FILES = { 'a.fake': 'use greet\ngreet now\n', 'b.fake': 'x\nfn greet\n' };
const at = (dir: string, file: string, line: number, from: number, to: number) => ({
  uri: `file://${dir}/${file}`,
  range: { start: { line, character: from }, end: { line, character: to } },
});
const session = new FakeSession(
  (dir) => ({
    capabilities: { definitionProvider: true, referencesProvider: true },
    answers: {
      'textDocument/definition': [at(dir, 'b.fake', 1, 3, 8)],
      'textDocument/references': [at(dir, 'a.fake', 1, 0, 5), at(dir, 'a.fake', 0, 4, 9)],
    },
  }),
  FILES,
);
afterAll(() => session.close());

test("def's answer: the canned place, in 1-based columns, with its line", async () => {
  const answer = await session.ask({
    op: 'def',
    target: { kind: 'name', path: `${session.dir}/a.fake`, line: 2, name: 'greet', nth: 1 },
  });
  const a = `${session.dir}/a.fake`;
  expect(answer).toEqual({
    target: { path: a, line: 2, column: 1, symbol: 'greet' },
    server: 'fake',
    root: session.dir,
    locations: [{ path: `${session.dir}/b.fake`, line: 2, column: 4, endLine: 2, endColumn: 9, preview: 'fn greet' }],
    total: 1,
    truncated: false,
    source: 'server',
  });
  expect(session.requests().filter((r) => r.method === 'textDocument/definition')).toEqual([
    {
      method: 'textDocument/definition',
      params: { textDocument: { uri: `file://${a}` }, position: { line: 1, character: 0 } },
    },
  ]);
});

test('def on the command line: one grep-style line, exit 0', async () => {
  expect(await session.run(['def', 'a.fake:2:greet'])).toEqual({ stdout: 'b.fake:2:4: fn greet\n', exit: 0 });
});

test('refs on the command line: the places in file order', async () => {
  // The server answered them out of order: they come sorted by file, line and column.
  expect(await session.run(['refs', 'a.fake:2:greet'])).toEqual({
    stdout: 'a.fake:1:5: use greet\na.fake:2:1: greet now\n',
    exit: 0,
  });
});

test('refs --limit 1: the first place, and a last line that says the answer was cut', async () => {
  expect(await session.run(['refs', 'a.fake:2:greet', '--limit', '1'])).toEqual({
    stdout: 'a.fake:1:5: use greet\n1 of 2 shown: --limit 0 for all\n',
    exit: 0,
    warnings: ['1 of 2 shown: --limit 0 for all'],
  });
});
