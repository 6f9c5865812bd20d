/** impls: the server's implementations, from every project of the workspace; or the index's. */
import { Requests } from '../../lsp/requests';
import { fromEachProject } from '../../engine/projects';
import { flattenLocations } from '../../lsp/convert';
import { locationsAnswer } from '../locations/handler';

export const impls = locationsAnswer({
  capability: 'implementationProvider',
  what: 'implementations',
  spansWorkspace: true,
  server: (session, params, { ctx, deadline, options }) =>
    fromEachProject(session, ctx, deadline, { uri: params.textDocument.uri, position: params.position }, async (at) =>
      flattenLocations(
        await session.client.request(
          Requests.implementation,
          { textDocument: { uri: at.uri }, position: at.position },
          options,
        ),
      ),
    ),
  index: ({ index, symbol }) => index.implementations(symbol),
});
