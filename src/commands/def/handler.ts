/** def: the server's definition, or the index's. */
import { Requests } from '../../lsp/requests';
import { locationsAnswer } from '../locations/handler';

export const def = locationsAnswer({
  capability: 'definitionProvider',
  what: 'definitions',
  keepsFoundDefinition: true,
  server: (session, params, { options }) => session.client.request(Requests.definition, params, options),
  index: ({ index, symbol }) => index.definitions(symbol),
});
