/** vue-language-server's tsserver/request as the connection hands it over: the tuple alone, or inside the list. Pure. */
import { expect, test } from 'bun:test';
import { tsserverRequestOf } from '../../src/lsp/server-answers';

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
