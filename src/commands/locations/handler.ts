/**
 * The engine's answer to def, typedef, impls and refs: one positional
 * question, answered from a SCIP index where one holds the symbol, else by
 * the server, as locations. Each command's handler.ts says what it asks
 * (`LocationsAsk`); the rest is the same for all four.
 */
import { existsSync } from 'node:fs';
import type {
  Location,
  LocationLink,
  Location as LspLocation,
  ServerCapabilities,
  TextDocumentPositionParams,
} from 'vscode-languageserver-protocol';
import { type Location as Place, sortLocations } from '../../answers/places';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { textsOf, using } from '../../engine/sessions';
import { withBodies, withContext } from '../../engine/excerpts';
import { withEnclosing } from '../../engine/enclosing';
import { atTarget, type IndexHit, indexServer, locationsOf } from '../../engine/from-index';
import { loadProjects } from '../../engine/projects';
import { openTarget } from '../../engine/open-target';
import type { RequestOptions } from '../../lsp/request-options';
import { flattenLocations, TextSource, toLocation } from '../../lsp/convert';
import type { Session } from '../../lsp/manager';
import { previewOf } from '../../lsp/preview';
import { lastName, type ScipPlace } from '../../scip/scip-index';
import { LspqError } from '../../common/errors';
import type { LocationsHandler } from './question';
import { withOtherBuilds } from './other-builds';

type Raw = LspLocation | LspLocation[] | LocationLink[] | Location | null | undefined;

/** What one of the four asks: of the server, and of an index. */
export interface LocationsAsk {
  /** The capability a server needs, and what it finds, for the message when none has it. */
  capability: keyof ServerCapabilities;
  what: string;
  /** The answer may lie in any project of the workspace: every project is loaded first (projects.ts). */
  spansWorkspace?: boolean;
  /** From an index, no place is an answer (a symbol nothing references), not a gap in what it holds. */
  noneIsAnAnswer?: boolean;
  /** The symbol search found the target at its definition: keep it (clangd answers def there with the declaration). */
  keepsFoundDefinition?: boolean;
  /** Each place names the symbol it sits in (`in`), from its file's document symbols: refs. */
  enclosing?: boolean;
  server(
    session: Session,
    params: TextDocumentPositionParams,
    context: { includeDeclaration: boolean; ctx: HandlerContext; deadline: Deadline; options: RequestOptions },
  ): Promise<Raw>;
  index(hit: IndexHit, includeDeclaration: boolean): ScipPlace[];
}

/**
 * The four questions' handler; one whose answer spans the workspace is
 * also asked under Go's other build configurations (go-builds.ts) where
 * the project has files this build leaves out that write the name.
 */
export function locationsAnswer(ask: LocationsAsk): LocationsHandler {
  const once = answerOnce(ask);
  if (!ask.spansWorkspace) return once;
  return async (req, ctx) => withOtherBuilds(await once(req, ctx), req, ctx, once);
}

function answerOnce(ask: LocationsAsk): LocationsHandler {
  return async (req, ctx) => {
    const only = req.index?.mode === 'only';
    if (req.body && only)
      throw new LspqError('unsupported', '--body reads each declaration from a live server; drop --index-only');
    const hit = req.body ? undefined : await atTarget(req.target, req, ctx);
    // What the index says of a file changed, added or deleted since is left out (atTarget says which may hold more).
    const places = hit
      ? ask.index(hit, req.includeDeclaration ?? false).filter((p) => !hit.outdated.has(p.path) && existsSync(p.path))
      : [];
    // Nothing held for it (a library's definition): the live server, unless only the index may answer.
    if (hit && places.length === 0 && only && !ask.noneIsAnAnswer)
      throw new LspqError(
        'unsupported',
        `the index has no ${ask.what} of ${hit.target.symbol ?? lastName(hit.symbol)} (defined outside the project, or not recorded by ${indexServer(hit.index)}); drop --index-only to ask the live server`,
      );
    if (hit && (places.length > 0 || only)) {
      const all = sortLocations(locationsOf(places, ctx));
      const texts = new TextSource(undefined, ctx.pool.caches.lines);
      return {
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
    const opened = await openTarget(req.target, req, ctx, deadline, ask.capability, ask.what);
    const { session, path, target, uri, position, shown } = opened;
    return using(session, async () => {
      const client = session.client;
      if (ask.spansWorkspace) await loadProjects(session, ctx, deadline);
      const options = deadline.options(ctx);
      const raw = await ask.server(
        session,
        { textDocument: { uri }, position },
        { includeDeclaration: req.includeDeclaration ?? false, ctx, deadline, options },
      );
      const texts = textsOf(session, ctx);
      // A server whose watcher lags may still answer from a file just deleted or renamed away.
      const found: Place[] = flattenLocations(raw)
        .map((l) => toLocation(l.uri, l.range, texts, client.encoding))
        .filter((l) => !l.path.startsWith('/') || existsSync(l.path));
      if (
        ask.keepsFoundDefinition &&
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
      const withCode = await withBodies(
        withContext(all.slice(0, req.limit), texts, req.context),
        session,
        req,
        ctx,
        deadline,
      );
      const shownOnes = ask.enclosing ? await withEnclosing(withCode, session, req, ctx, deadline) : withCode;
      return {
        target,
        server: client.spec.id,
        root: client.root,
        locations: sortLocations(shownOnes.map((l) => ({ ...l, path: shown(l.path) }))),
        total: all.length,
        truncated: all.length > req.limit,
        source: 'server',
      };
    });
  };
}
