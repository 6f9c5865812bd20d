/** vue-language-server's tsserver/request as the connection hands it over: the tuple alone, or inside the list. Pure. */
import { describe, expect, test } from 'bun:test';
import { reasonOf, tsserverRequestOf } from '../../src/lsp/server-answers';

test('[id, command, args] as the one parameter or as the whole list; anything else is no request', () => {
  const args = { file: '/p/App.vue', needFileNameList: false };
  expect(tsserverRequestOf([[1, '_vue:projectInfo', args]])).toEqual({ id: 1, command: '_vue:projectInfo', args });
  expect(tsserverRequestOf([2, '_vue:quickinfo', args])).toEqual({ id: 2, command: '_vue:quickinfo', args });
  expect([
    tsserverRequestOf([['1', 'x']]),
    tsserverRequestOf([[1]]),
    tsserverRequestOf({}),
    tsserverRequestOf(null),
  ]).toEqual([undefined, undefined, undefined, undefined]);
});

describe('reasonOf: the reason a server gives on the line after its failure', () => {
  test("graphql-lsp's warning: the first error under it", () => {
    const message =
      'WARNING: graphql-config error, only highlighting is enabled:\nField "A.b" can only be defined once.\n\nField "A.c" can only be defined once.\nfor more information';
    expect(reasonOf(message)).toBe('Field "A.b" can only be defined once.');
  });

  test('one line: that line', () => {
    expect(reasonOf('it failed')).toBe('it failed');
  });
});
