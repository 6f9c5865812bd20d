/**
 * The code that comes with an answer, so an agent's next call need not be
 * `sed -n` on the file: lines of context around a place (-B/-A/-C) and a
 * location's whole declaration (--body). Both read the file's text as the
 * servers see it (an open document's, else the disk's), never a copy that
 * could be stale.
 */
import { Requests } from '../lsp/requests';
import type { DocumentSymbol as LspDocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import type { TextSource } from '../lsp/convert';
import { symbolTree, toSpan } from '../lsp/convert';
import type { Session } from '../lsp/manager';
import { languageIdFor } from '../lsp/servers/registry';
import type { CallerContext } from '../answers/caller';
import type { Body, Context, Location, Span } from '../answers/places';
import type { Deadline, HandlerContext } from './context';
import { sessionFor, textsOf } from './sessions';

/** A line longer than this is cut, so one minified line cannot flood the answer. */
export const MAX_EXCERPT_CHARS = 400;

function clip(line: string): string {
  return line.length > MAX_EXCERPT_CHARS ? `${line.slice(0, MAX_EXCERPT_CHARS)}…` : line;
}

/** The file's lines without the empty one after a final newline. */
function linesOf(texts: TextSource, path: string): string[] {
  const lines = texts.lines(path) ?? [];
  return lines.length > 0 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

/** The window of `around` lines about 1-based `line` of `path`, the line itself included. */
export function contextOf(
  texts: TextSource,
  path: string,
  line: number,
  around: { before: number; after: number },
): Context {
  const lines = linesOf(texts, path);
  const first = Math.max(1, line - around.before);
  const last = Math.min(lines.length, line + around.after);
  return { line: first, lines: lines.slice(first - 1, Math.max(first - 1, last)).map(clip) };
}

/** Adds the context window to each place, when the question asked for one. */
export function withContext<T extends { path: string; line: number }>(
  places: T[],
  texts: TextSource,
  around: CallerContext['context'],
): T[] {
  if (!around) return places;
  return places.map((p) => (p.path.startsWith('/') ? { ...p, context: contextOf(texts, p.path, p.line, around) } : p));
}

interface Declared {
  range: Span;
  selection: Span;
}

/** Every symbol of a document answer, nested or flat, with code-point spans. */
function declarations(
  raw: (LspDocumentSymbol | SymbolInformation)[],
  path: string,
  texts: TextSource,
  session: Session,
): Declared[] {
  const out: Declared[] = [];
  const encoding = session.client.encoding;
  const walk = (list: LspDocumentSymbol[]) => {
    for (const s of list) {
      out.push({
        range: toSpan(path, s.range, texts, encoding),
        selection: toSpan(path, s.selectionRange, texts, encoding),
      });
      if (s.children) walk(s.children);
    }
  };
  const answer = symbolTree(raw);
  if ('flat' in answer) {
    for (const s of answer.flat) {
      const span = toSpan(path, s.location.range, texts, encoding);
      out.push({ range: span, selection: span });
    }
  } else walk(answer.tree);
  return out;
}

const contains = (s: Span, line: number, column: number) =>
  (line > s.line || (line === s.line && column >= s.column)) &&
  (line < s.endLine || (line === s.endLine && column <= s.endColumn));

const size = (s: Span) => (s.endLine - s.line) * 1_000_000 + (s.endColumn - s.column);

/**
 * The server that gives a location's document symbols: the one that
 * answered, when the file is in its languages (a standard library, a
 * dependency), else the file's own server.
 */
export async function symbolServer(
  path: string,
  answering: Session,
  req: CallerContext,
  ctx: HandlerContext,
): Promise<Session | undefined> {
  if (languageIdFor(answering.client.spec, path) !== undefined) return answering;
  try {
    return await sessionFor(ctx, req, path, 'documentSymbolProvider', 'document symbols');
  } catch (err) {
    // No server that knows the file's symbols: no body there. A server that failed is a failure, said so.
    if (err instanceof LspqError && ['no_server', 'server_not_installed', 'unsupported'].includes(err.code))
      return undefined;
    throw err;
  }
}

/** A document's symbols, asked once per version of its text. */
export async function documentSymbols(
  session: Session,
  path: string,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<(LspDocumentSymbol | SymbolInformation)[]> {
  const text = await session.docs.sync(path);
  const key = `${session.key}\0${path}`;
  const hit = ctx.pool.caches.symbols.get(key);
  if (hit && hit.text === text) return hit.symbols;
  const symbols =
    (await session.client.request(
      Requests.documentSymbol,
      { textDocument: { uri: session.docs.uri(path) } },
      deadline.options(ctx),
    )) ?? [];
  ctx.pool.caches.symbols.set(key, { text, symbols });
  return symbols;
}

/**
 * The innermost declaration whose name holds the location, its lines cut
 * at `maxLines`; null where the file's server gives no symbol there.
 */
async function bodyOf(
  location: Location,
  answering: Session,
  maxLines: number,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Body | null> {
  if (!location.path.startsWith('/')) return null;
  const session = await symbolServer(location.path, answering, req, ctx);
  if (!session?.client.capabilities.documentSymbolProvider) return null;
  const raw = await documentSymbols(session, location.path, ctx, deadline);
  const texts = textsOf(session, ctx);
  const around = declarations(raw, location.path, texts, session).filter((d) =>
    contains(d.selection, location.line, location.column),
  );
  const inner = around.sort((a, b) => size(a.range) - size(b.range))[0];
  if (!inner) return null;
  const lines = linesOf(texts, location.path).slice(inner.range.line - 1, inner.range.endLine);
  const kept = lines.slice(0, maxLines);
  return {
    line: inner.range.line,
    endLine: inner.range.endLine,
    text: kept.map(clip).join('\n'),
    truncated: lines.length > kept.length,
  };
}

/** Adds each location's declaration, when the question asked for bodies. */
export async function withBodies(
  locations: Location[],
  answering: Session,
  req: CallerContext & { body?: { maxLines: number } },
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Location[]> {
  const body = req.body;
  if (!body) return locations;
  const out: Location[] = [];
  for (const l of locations) out.push({ ...l, body: await bodyOf(l, answering, body.maxLines, req, ctx, deadline) });
  return out;
}
