/**
 * refs: the server's references, from every project of the workspace, the
 * same set wherever asked (at a Python stub, its implementation or a use:
 * stub-sides.ts); or the index's.
 */
import { Requests } from '../../lsp/requests';
import type { Location, TextDocumentPositionParams } from 'vscode-languageserver-protocol';
import { declarationsAt, isDeclaration } from '../../engine/symbol-declarations';
import type { RequestOptions } from '../../lsp/request-options';
import type { Session } from '../../lsp/manager';
import { locationsAnswer } from '../locations/handler';
import { acrossStubs } from '../../engine/stub-sides';
import { uriToPath } from '../../lsp/uri';

/**
 * References with the declaration, as every server answers the same
 * wherever asked; taken out again by lspq unless it was asked for
 * (declarations.ts). A server that gives no definition decides itself.
 */
async function references(
  session: Session,
  params: TextDocumentPositionParams,
  includeDeclaration: boolean,
  options: RequestOptions,
): Promise<Location[]> {
  const client = session.client;
  const judged = includeDeclaration || !client.capabilities.definitionProvider;
  const context = { includeDeclaration: judged ? includeDeclaration : true };
  const all = (await client.request(Requests.references, { ...params, context }, options)) ?? [];
  if (judged) return all;
  const declarations = await declarationsAt(session, params, options);
  return all.filter((ref) => !isDeclaration(ref, declarations));
}

export const refs = locationsAnswer({
  capability: 'referencesProvider',
  what: 'references',
  noneIsAnAnswer: true,
  spansWorkspace: true,
  enclosing: true,
  server: async (session, params, { includeDeclaration, ctx, deadline, options }) => {
    const { answers, sides } = await acrossStubs(
      session,
      params,
      (at) => references(session, at, includeDeclaration, options),
      (refs) => refs.flatMap((r) => uriToPath(r.uri) ?? []),
      ctx,
      deadline,
      options,
    );
    // Each side's declarations are the symbol's: taken out of every side's answer alike.
    const all = answers.flat();
    return includeDeclaration ? all : all.filter((ref) => !isDeclaration(ref, sides));
  },
  index: ({ index, symbol }, includeDeclaration) => index.references(symbol, includeDeclaration),
});
