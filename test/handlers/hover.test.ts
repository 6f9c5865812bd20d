/** hover's handler through the typed seam, on a server that answers what the test canned. */
import { afterAll, expect, test } from 'bun:test';
import { FakeSession } from '../helpers/fake-session';

const HOVER = {
  contents: { kind: 'markdown', value: '```fake\nfunc hello()\n```\n\nSays hello.' },
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
};
const session = new FakeSession({ capabilities: { hoverProvider: true }, answers: { 'textDocument/hover': HOVER } });
const silent = new FakeSession({ capabilities: { hoverProvider: true }, answers: {} });
afterAll(async () => {
  await session.close();
  await silent.close();
});

test('the answer: the canned text, its range in 1-based columns, the server and root named', async () => {
  const answer = await session.ask({
    op: 'hover',
    target: { kind: 'position', path: `${session.dir}/a.fake`, line: 1, column: 7 },
  });
  expect(answer).toEqual({
    target: { path: `${session.dir}/a.fake`, line: 1, column: 7, symbol: 'world' },
    server: 'fake',
    root: session.dir,
    contents: '```fake\nfunc hello()\n```\n\nSays hello.',
    range: { line: 1, column: 1, endLine: 1, endColumn: 6 },
    source: 'server',
  });
  expect(session.requests().filter((r) => r.method === 'textDocument/hover')).toEqual([
    {
      method: 'textDocument/hover',
      params: { textDocument: { uri: `file://${session.dir}/a.fake` }, position: { line: 0, character: 6 } },
    },
  ]);
});

test('the command line: its text on stdout, exit 0', async () => {
  expect(await session.run(['hover', 'a.fake:1:hello'])).toEqual({
    stdout: '```fake\nfunc hello()\n```\n\nSays hello.\n',
    exit: 0,
  });
});

test('--json: the published document', async () => {
  const out = await session.run(['hover', 'a.fake:1:hello', '--json']);
  expect(out.exit).toBe(0);
  expect(JSON.parse(out.stdout)).toEqual({
    target: { path: 'a.fake', line: 1, column: 1, symbol: 'hello' },
    server: 'fake',
    root: session.dir,
    contents: '```fake\nfunc hello()\n```\n\nSays hello.',
    range: { line: 1, column: 1, endLine: 1, endColumn: 6 },
    source: 'server',
  });
});

test('a server with nothing to say: exit 1, one line naming what was asked', async () => {
  expect(await silent.run(['hover', 'a.fake:1:world'])).toEqual({
    stdout: '',
    exit: 1,
    stderr: 'no hover information for world (a.fake:1:7)',
  });
});
