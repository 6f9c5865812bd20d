/**
 * refs gives the same set wherever it is asked. Servers do not: with
 * `includeDeclaration: false`, pyright asked at a call site answered only
 * the declaration (or nothing, fresh), and typescript-language-server left
 * the declaration out only when asked at it. So references are always
 * asked with the declaration, and lspq takes out the declarations itself:
 * where the server's definition (and, where it offers one, its
 * declaration: a C header's) puts them.
 */
import { Requests } from '../lsp/requests';
import type { Location, LocationLink, Range, TextDocumentPositionParams } from 'vscode-languageserver-protocol';
import { existsSync } from 'node:fs';
import type { RequestOptions } from '../lsp/request-options';
import { flattenLocations } from '../lsp/convert';
import type { Session } from '../lsp/manager';
import { uriToPath } from '../lsp/uri';

export interface Place {
  uri: string;
  range: Range;
}

/** Definitions whose declarations are asked for as well: a symbol has few. */
const DEFINITIONS_MAX = 4;

/**
 * Where the symbol at a position is declared, as the server says: its
 * definitions, and where it offers declarations (clangd: a header's), the
 * declarations of the position and of each definition, since asked at a
 * declaration clangd names the definition, and asked there, the declaration.
 */
export async function declarationsAt(
  session: Session,
  params: TextDocumentPositionParams,
  options: RequestOptions,
): Promise<Place[]> {
  const client = session.client;
  if (!client.capabilities.definitionProvider) return [];
  const definitions = flattenLocations(await client.request(Requests.definition, params, options));
  if (!client.capabilities.declarationProvider) return definitions;
  const declaredAt = async (at: TextDocumentPositionParams): Promise<Place[]> => {
    const declared: Location | Location[] | LocationLink[] | null = await client.request(
      Requests.declaration,
      at,
      options,
    );
    return flattenLocations(declared);
  };
  const found = [...definitions, ...(await declaredAt(params))];
  for (const d of definitions.slice(0, DEFINITIONS_MAX)) {
    const path = uriToPath(d.uri);
    if (!path || !existsSync(path)) continue;
    // clangd answers only about documents it has open.
    await session.docs.sync(path);
    found.push(...(await declaredAt({ textDocument: { uri: session.docs.uri(path) }, position: d.range.start })));
  }
  return found;
}

/** Whether a position comes before another. */
export const before = (a: Range['start'], b: Range['start']) =>
  a.line < b.line || (a.line === b.line && a.character < b.character);

/** A reference that starts within a declaration's name is that declaration. */
export function isDeclaration(ref: Place, declarations: Place[]): boolean {
  const at = ref.range.start;
  return declarations.some(
    (d) => d.uri === ref.uri && !before(at, d.range.start) && !before(d.range.end, at) && !sameEnd(d.range, at),
  );
}

/** The position just past a name is not in it (an empty declaration range still holds its start). */
function sameEnd(range: Range, at: Range['start']): boolean {
  const empty = range.start.line === range.end.line && range.start.character === range.end.character;
  return !empty && at.line === range.end.line && at.character === range.end.character;
}
