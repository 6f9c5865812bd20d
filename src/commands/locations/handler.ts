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
import {
  atTarget,
  changedNow,
  enclosingOf,
  type IndexHit,
  indexServer,
  locationOf,
  mentions,
  writesName,
} from '../../engine/from-index';
import { missingPlugins, pluginInstall } from '../../lsp/servers/ts-plugins';
import { projectFiles } from '../../lsp/project-files';
import { loadProjects } from '../../engine/projects';
import { openTarget } from '../../engine/open-target';
import type { RequestOptions } from '../../lsp/request-options';
import { flattenLocations, TextSource, toLocation } from '../../lsp/convert';
import { nameAtColumn } from '../../common/identifiers';
import { unrecordedUse } from '../../engine/index-gaps';
import type { Session } from '../../lsp/manager';
import { previewOf } from '../../lsp/preview';
import { lastName } from '../../scip/scip-index';
import type { SymbolPlace } from '../../scip/scip-types';
import { LspqError } from '../../common/errors';
import { Requests } from '../../lsp/requests';
import type { LocationsHandler, LocationsQuery, LocationsResult } from './question';
import type { CallerContext } from '../../answers/caller';
import { displayPath } from '../../common/paths';
import { leftOutByIndex, nameAt, withOtherBuilds } from './other-builds';
import { INDEXERS } from '../../lsp/servers/indexers';

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
  index(hit: IndexHit, includeDeclaration: boolean): SymbolPlace[];
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

/** What the indexer that wrote a symbol (its scheme, a symbol's first word) leaves out of references, if known. */
const partialReferences = (symbol: string) => INDEXERS.find((i) => i.name === symbol.split(' ')[0])?.partialReferences;

/**
 * The files a TypeScript server cannot know for lack of a plugin the
 * project needs (the .svelte files that name the symbol, without
 * typescript-svelte-plugin), with what would let it: not searched.
 */
async function unknownToServer(
  session: Session,
  target: { path: string; line: number; column: number; symbol?: string },
): Promise<Pick<LocationsResult, 'unsearched' | 'unsearchedBecause'> | undefined> {
  const missing = missingPlugins(session.client.spec);
  if (missing.length === 0) return undefined;
  const name = nameAt(target.path, target.line, target.column, target.symbol);
  if (!name) return undefined;
  const reached = new Set(missing.flatMap((p) => p.reaches ?? []));
  const files = (await projectFiles(session.client.spec, session.client.root, 20_000, [...reached])).filter(
    (p) => [...reached].some((ext) => p.endsWith(ext)) && mentions(p, name),
  );
  if (files.length === 0) return undefined;
  const plugins = missing
    .filter((p) => files.some((f) => (p.reaches ?? []).some((ext) => f.endsWith(ext))))
    .map((p) => `${p.name} loaded, in a project with ${p.forPackage} installed (${pluginInstall(p)})`);
  return {
    unsearched: files,
    unsearchedBecause: `${session.client.spec.id} knows them only with ${plugins.join(', ')}`,
  };
}

/** Most asks a server whose first answers can be partial gets before its answer counts as settled anyway. */
const MAX_ASKS = 4;
/** Places remembered as settled per server, at most (past it, each is settled again). */
const MAX_SETTLED = 10_000;

const placesOf = (raw: Raw) =>
  JSON.stringify(
    flattenLocations(raw)
      .map((l) => `${l.uri}:${l.range.start.line}:${l.range.start.character}`)
      .sort(),
  );

/**
 * A workspace-wide answer from a server whose first answer can be partial:
 * hovered first, every time, where the server resolves a place only so
 * (spec.resolvesOnHover); where it settles (spec.settles), the first time
 * a place is asked, asked until two answers in a row agree, so a cold
 * answer is the warm one; after that, asked once.
 */
async function settled(
  session: Session,
  place: string,
  params: TextDocumentPositionParams,
  asking: () => Promise<Raw>,
  ctx: HandlerContext,
  options: RequestOptions,
): Promise<Raw> {
  const spec = session.client.spec;
  if (spec.resolvesOnHover) await session.client.request(Requests.hover, params, options);
  if (!spec.settles || session.settled?.has(place)) return asking();
  let raw = await asking();
  for (let n = 1; n < MAX_ASKS; n++) {
    const again = await asking();
    if (placesOf(again) === placesOf(raw)) break;
    ctx.log(`${spec.id}: a cold answer changed when asked again (${n + 1} asks)`);
    raw = again;
  }
  session.settled ??= new Set();
  if (session.settled.size >= MAX_SETTLED) session.settled.clear();
  session.settled.add(place);
  return raw;
}

const IDENT = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
/** `X as Y` ending a specifier: before `,`, `}`, `)`, `;`, `from` or the line's end. */
const RENAMED = new RegExp(String.raw`^\s+as\s+${IDENT}\s*(?:[,})\];]|from\b|$)`, 'u');
/** A line of an import or export (`import`, `export`, `from`, `use`), or one specifier alone in a long one. */
const IMPORTING = new RegExp(String.raw`\b(?:import|export|from|use)\b|^\s*${IDENT}\s+as\s+${IDENT}\s*,?\s*$`, 'u');

/** Whether the name at `column` is imported or exported under another (`joinPath as join`), not cast (`x as T`). */
function renamedAt(line: string, column: number, symbol: string): boolean {
  return RENAMED.test(line.slice(column - 1 + lastName(symbol).length)) && IMPORTING.test(line);
}

/**
 * The answer from the index's places, or undefined where the live server
 * must answer: a workspace-wide answer that meets an import renaming the
 * symbol (indexers record the new name's uses as another symbol's, the
 * server follows it) or a use its files show that the index does not
 * record (index-gaps.ts), unless only the index may answer, which then
 * says it may lack them (exit 3).
 */
function indexAnswer(
  hit: IndexHit,
  places: SymbolPlace[],
  ask: LocationsAsk,
  req: LocationsQuery & CallerContext,
  ctx: HandlerContext,
  only: boolean,
  partial: string | undefined,
): LocationsResult | undefined {
  const texts = new TextSource(undefined, ctx.pool.caches.lines);
  // A place that does not write its symbol's name is the indexer's misreading, not a use (from-index.ts); each
  // place is its own symbol's (an implementation's, a related member's), not always the target's.
  const all = sortLocations(
    places.flatMap((p) => {
      const l = locationOf(p, texts);
      if (!writesName(texts.line(l.path, l.line - 1) ?? '', l.column, p.symbol)) return [];
      const within = ask.enclosing ? enclosingOf(hit.index, p) : undefined;
      return [within ? { ...l, in: within } : l];
    }),
  );
  const aliased = ask.spansWorkspace
    ? all.find((l) => renamedAt(texts.line(l.path, l.line - 1) ?? '', l.column, hit.symbol))
    : undefined;
  const written = nameAtColumn(texts.line(hit.target.path, hit.target.line - 1), hit.target.column);
  const mentioned = ask.spansWorkspace && !aliased && written ? unrecordedUse(all, written, texts) : undefined;
  if ((aliased || mentioned) && !only) return undefined;
  const lacking = aliased
    ? `the uses through an import that renames it (${displayPath(aliased.path, req.cwd)}:${aliased.line})`
    : mentioned
      ? `${mentioned.what} (${displayPath(mentioned.path, req.cwd)}:${mentioned.line})`
      : partial;
  // Alone, it names the files its build left out that write the name, where its table knows them.
  const leftOut = only && ask.spansWorkspace ? leftOutByIndex(hit.index, lastName(hit.symbol), ctx.disk) : undefined;
  return {
    target: hit.target,
    server: indexServer(hit.index),
    root: hit.index.root,
    locations: withContext(all.slice(0, req.limit), texts, req.context),
    total: all.length,
    truncated: all.length > req.limit,
    source: 'index',
    stale: hit.stale.filter((p) => p !== hit.target.path),
    ...(lacking ? { partial: lacking } : {}),
    ...leftOut,
  };
}

/**
 * The hit with the files of its places looked at now (from-index.ts's
 * changedNow): one changed since the index may hold more or fewer, so the
 * live server answers (undefined), or alone, the index's answer names it stale.
 */
function lookedAtNow(hit: IndexHit, places: SymbolPlace[], only: boolean): IndexHit | undefined {
  const changed = changedNow(
    hit,
    places.map((p) => p.path),
  );
  if (changed.length === 0) return hit;
  if (!only) return undefined;
  return { ...hit, stale: [...hit.stale, ...changed], outdated: new Set([...hit.outdated, ...changed]) };
}

function answerOnce(ask: LocationsAsk): LocationsHandler {
  return async (req, ctx) => {
    const only = req.index?.mode === 'only';
    if (req.body && only)
      throw new LspqError('unsupported', '--body reads each declaration from a live server; drop --index-only');
    const found = req.body ? undefined : await atTarget(req.target, req, ctx);
    // An indexer known to leave out places the server counts answers a workspace-wide question only when alone.
    const partial = found && ask.spansWorkspace ? partialReferences(found.symbol) : undefined;
    const asked = partial && !only ? undefined : found;
    const held = asked ? ask.index(asked, req.includeDeclaration ?? false) : [];
    const hit = asked && lookedAtNow(asked, held, only);
    // What the index says of a file changed, added or deleted since is left out (atTarget says which may hold more).
    const places = hit ? held.filter((p) => !hit.outdated.has(p.path) && existsSync(p.path)) : [];
    // Nothing held for it (a library's definition): the live server, unless only the index may answer.
    if (hit && places.length === 0 && only && !ask.noneIsAnAnswer)
      throw new LspqError(
        'unsupported',
        `the index has no ${ask.what} of ${hit.target.symbol ?? lastName(hit.symbol)} (defined outside the project, or not recorded by ${indexServer(hit.index)}); drop --index-only to ask the live server`,
      );
    const fromIndex =
      hit && (places.length > 0 || only) ? indexAnswer(hit, places, ask, req, ctx, only, partial) : undefined;
    if (fromIndex) return fromIndex;
    const deadline = deadlineFor(req);
    const opened = await openTarget(req.target, req, ctx, deadline, ask.capability, ask.what);
    const { session, path, target, uri, position, shown } = opened;
    return using(session, async () => {
      const client = session.client;
      if (ask.spansWorkspace) {
        // Where no project holds the files (JavaScript with no jsconfig.json), those that name the symbol are opened.
        const name = nameAt(path, target.line, target.column, target.symbol);
        await loadProjects(session, ctx, deadline, name ? { name } : undefined);
      }
      const options = deadline.options(ctx);
      const params = { textDocument: { uri }, position };
      const asking = () =>
        ask.server(session, params, { includeDeclaration: req.includeDeclaration ?? false, ctx, deadline, options });
      const place = `${uri}:${position.line}:${position.character}`;
      const raw = ask.spansWorkspace ? await settled(session, place, params, asking, ctx, options) : await asking();
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
      // Files a missing tsserver plugin would make known (.svelte without typescript-svelte-plugin): named.
      const unknown = ask.spansWorkspace ? await unknownToServer(session, target) : undefined;
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
        ...unknown,
      };
    });
  };
}
