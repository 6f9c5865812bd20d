/** typedef: the server's type definition, or the index's. */
import { Requests } from '../../lsp/requests';
import { locationsAnswer } from '../locations/handler';

export const typedef = locationsAnswer({
  capability: 'typeDefinitionProvider',
  what: 'type definitions',
  server: (session, params, { options }) => session.client.request(Requests.typeDefinition, params, options),
  index: ({ index, symbol }) => index.typeDefinitions(symbol),
});
