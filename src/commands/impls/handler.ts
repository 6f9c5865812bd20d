/**
 * impls: the server's implementations, from every project of the workspace,
 * at a Python stub and its implementation alike (stub-sides.ts); or the index's.
 */
import type { TextDocumentPositionParams } from 'vscode-languageserver-protocol';
import { Requests } from '../../lsp/requests';
import { fromEachProject } from '../../engine/projects';
import { flattenLocations } from '../../lsp/convert';
import { locationsAnswer } from '../locations/handler';
import { acrossStubs } from '../../engine/stub-sides';

export const impls = locationsAnswer({
  capability: 'implementationProvider',
  what: 'implementations',
  spansWorkspace: true,
  server: async (session, params, { ctx, deadline, options }) => {
    const implementations = (asked: TextDocumentPositionParams) =>
      fromEachProject(session, ctx, deadline, { uri: asked.textDocument.uri, position: asked.position }, async (at) =>
        flattenLocations(
          await session.client.request(
            Requests.implementation,
            { textDocument: { uri: at.uri }, position: at.position },
            options,
          ),
        ),
      );
    const { answers } = await acrossStubs(session, params, implementations, () => [], ctx, deadline, options);
    return answers.flat();
  },
  index: ({ index, symbol }) => index.implementations(symbol),
});
