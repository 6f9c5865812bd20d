/** def, typedef, impls, refs: one positional request, answered as locations. */
import { existsSync } from 'node:fs';
import {
  DefinitionRequest,
  ImplementationRequest,
  type Location,
  ReferencesRequest,
  type ServerCapabilities,
  type TextDocumentPositionParams,
  TypeDefinitionRequest,
} from 'vscode-languageserver-protocol';
import type { RequestOptions } from '../../lsp/client';
import type { Session } from '../../lsp/manager';
import { declarationsAt, isDeclaration } from './declarations';
import { flattenLocations, sortLocations, TextSource, toLocation } from '../../lsp/convert';
import { previewOf } from '../../lsp/preview';
import type { LocationOp, LocationsResult, QueryRequest } from '../../queries';
import { withBodies, withContext } from './excerpts';
import { deadlineFor, using, textsOf, type HandlerContext } from './context';
import { atTarget, indexPlaces, indexServer, locationsOf } from './from-index';
import { fromEachProject, loadProjects } from './projects';
import { openTarget } from './target';

const CAPABILITY: Record<LocationOp, keyof ServerCapabilities> = {
  def: 'definitionProvider',
  typedef: 'typeDefinitionProvider',
  impls: 'implementationProvider',
  refs: 'referencesProvider',
};

const WHAT: Record<LocationOp, string> = {
  def: 'definitions',
  typedef: 'type definitions',
  impls: 'implementations',
  refs: 'references',
};

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
  const all = (await client.request(ReferencesRequest.type, { ...params, context }, options)) ?? [];
  if (judged) return all;
  const declarations = await declarationsAt(session, params, options);
  return all.filter((ref) => !isDeclaration(ref, declarations));
}

export async function locations(
  req: Extract<QueryRequest, { op: LocationOp }>,
  ctx: HandlerContext,
): Promise<LocationsResult> {
  const hit = req.body ? undefined : await atTarget(req.target, req, ctx);
  const places = hit ? indexPlaces(hit, req.op, req.includeDeclaration ?? false) : [];
  // Nothing held for it (a library's definition): the live server, unless only the index may answer.
  if (hit && (places.length > 0 || req.index?.mode === 'only')) {
    const all = sortLocations(locationsOf(places, ctx));
    const texts = new TextSource(undefined, ctx.pool.caches.lines);
    return {
      op: req.op,
      target: hit.target,
      server: indexServer(hit.index),
      root: hit.index.root,
      locations: withContext(all.slice(0, req.limit), texts, req.context),
      total: all.length,
      truncated: all.length > req.limit,
      source: 'index',
      stale: hit.stale.filter((p) => p !== hit.target.path),
    };
  }
  const deadline = deadlineFor(req);
  const { session, path, target, uri, position, shown } = await openTarget(
    req.target,
    req,
    ctx,
    deadline,
    CAPABILITY[req.op],
    WHAT[req.op],
  );
  return using(session, async () => {
    const client = session.client;
    // References and implementations may be in any project of the workspace.
    if (req.op === 'refs' || req.op === 'impls') await loadProjects(session, ctx, deadline);
    const options = deadline.options(ctx);
    const params = { textDocument: { uri }, position };
    const raw =
      req.op === 'def'
        ? await client.request(DefinitionRequest.type, params, options)
        : req.op === 'typedef'
          ? await client.request(TypeDefinitionRequest.type, params, options)
          : req.op === 'impls'
            ? await fromEachProject(session, ctx, deadline, { uri, position }, async (at) =>
                flattenLocations(
                  await client.request(
                    ImplementationRequest.type,
                    { textDocument: { uri: at.uri }, position: at.position },
                    options,
                  ),
                ),
              )
            : await references(session, params, req.includeDeclaration ?? false, options);
    const texts = textsOf(session, ctx);
    // A server whose watcher lags may still answer from a file just deleted or renamed away.
    const found = flattenLocations(raw)
      .map((l) => toLocation(l.uri, l.range, texts, client.encoding))
      .filter((l) => !l.path.startsWith('/') || existsSync(l.path));
    // The symbol search already found a definition; clangd answers def on a
    // definition with its declaration, so keep the definition in the answer.
    if (
      req.op === 'def' &&
      req.target.kind === 'symbol' &&
      !found.some((l) => l.path === path && l.line === target.line)
    ) {
      const line = texts.line(path, target.line - 1);
      found.push({
        path,
        line: target.line,
        column: target.column,
        endLine: target.line,
        endColumn: target.column + (target.symbol?.split('.').pop()?.length ?? 0),
        preview: previewOf(line, target.column),
      });
    }
    const all = sortLocations(found);
    // Context and bodies only for the locations shown, read before paths are shown as the user named them.
    const shownOnes = await withBodies(
      withContext(all.slice(0, req.limit), texts, req.context),
      session,
      req,
      ctx,
      deadline,
    );
    return {
      op: req.op,
      target,
      server: client.spec.id,
      root: client.root,
      locations: sortLocations(shownOnes.map((l) => ({ ...l, path: shown(l.path) }))),
      total: all.length,
      truncated: all.length > req.limit,
      source: 'server',
    };
  });
}
