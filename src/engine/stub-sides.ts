/**
 * A Python stub and its implementation answer as one symbol. pyright and
 * basedpyright take the declaration in a `.pyi` stub and the one in the
 * module it describes for two: asked at the implementation, references,
 * implementations and a rename reach what resolves to it alone (the
 * module's own uses, `from ._make import fields`); asked at the stub or at
 * a use through it, what resolves to the stub (attrs's `fields`: 36 places
 * against 134, and a rename at the implementation broke `import attrs`).
 * So a question is asked at each declaration of the symbol on either side
 * of the stub and the answers are joined; where no stub is involved,
 * nothing more is asked.
 */
import { dirname, join } from 'node:path';
import { existsSync, lstatSync } from 'node:fs';
import type { DocumentSymbol, Position, TextDocumentPositionParams } from 'vscode-languageserver-protocol';
import { nameAtColumn } from '../common/identifiers';
import { displayPath, isWithin } from '../common/paths';
import { usage } from '../common/errors';
import type { Move } from '../lsp/workspace-edit';
import { readWorkspaceText } from '../common/file-size';
import { flattenLocations, symbolTree } from '../lsp/convert';
import type { Session } from '../lsp/manager';
import { fromServerCharacter } from '../lsp/position';
import type { RequestOptions } from '../lsp/request-options';
import { Requests } from '../lsp/requests';
import { isStub, stubPair } from '../lsp/servers/languages';
import { uriToPath } from '../lsp/uri';
import type { Deadline, HandlerContext } from './context';
import { documentSymbols } from './excerpts';
import { textsOf } from './sessions';
import { before, declarationsAt, isDeclaration, type Place } from './symbol-declarations';

/** Declarations of one symbol asked at, at most: a stub's overloads and a few re-exporting stubs. */
const MAX_SIDES = 8;

const holds = (range: Place['range'], at: Position) => !before(at, range.start) && !before(range.end, at);

/**
 * The names from the outermost symbol down to the one whose name holds
 * `at` (`['Box', 'grow']`); undefined where no symbol's name holds it. Pure.
 */
export function chainAt(tree: readonly DocumentSymbol[], at: Position): string[] | undefined {
  for (const s of tree) {
    if (holds(s.selectionRange, at)) return [s.name];
    if (!holds(s.range, at)) continue;
    const inner = chainAt(s.children ?? [], at);
    if (inner) return [s.name, ...inner];
  }
  return undefined;
}

/** Where each symbol of a chain of names is named in a tree (a stub's overloads are several). Pure. */
export function namedBy(tree: readonly DocumentSymbol[], chain: readonly string[]): Place['range'][] {
  const [first, ...rest] = chain;
  const here = tree.filter((s) => s.name === first);
  return rest.length === 0 ? here.map((s) => s.selectionRange) : here.flatMap((s) => namedBy(s.children ?? [], rest));
}

/** The name written at a server's place, as the file reads now. */
function nameAt(session: Session, ctx: HandlerContext, path: string, at: Position): string | undefined {
  const line = textsOf(session, ctx).line(path, at.line);
  return nameAtColumn(line, fromServerCharacter(line, at.character, session.client.encoding) + 1);
}

/** A file's document symbols as a tree; a flat answer (no server of stubs gives one) names no chain. */
async function treeOf(session: Session, path: string, ctx: HandlerContext, deadline: Deadline) {
  const answer = symbolTree(await documentSymbols(session, path, ctx, deadline));
  return 'tree' in answer ? answer.tree : [];
}

/**
 * Stubs that may declare the implementation in `impl` named `name`: the
 * module's own `.pyi`, each enclosing package's `__init__.pyi` up to the
 * root, and the stub of each module of `alsoIn` (the files an answer names:
 * one that imports the symbol re-exports it), where they exist and write
 * the name. Read from the disk, no server asked.
 */
function stubFiles(impl: string, alsoIn: string[], root: string, name: string): string[] {
  const stubs = new Set<string>();
  const own = stubPair(impl);
  if (own) stubs.add(own);
  for (let dir = dirname(impl); isWithin(dir, root); dir = dirname(dir)) {
    stubs.add(join(dir, '__init__.pyi'));
    if (dir === root) break;
  }
  for (const path of alsoIn) {
    const stub = stubPair(path);
    if (stub && !isStub(path)) stubs.add(stub);
  }
  return [...stubs].filter(
    (stub) =>
      isWithin(stub, root) &&
      existsSync(stub) &&
      readWorkspaceText(stub, 'source', { quietPastCap: true })?.includes(name) === true,
  );
}

const samePlace = (a: Place, b: Place) => uriToPath(a.uri) === uriToPath(b.uri) && holds(b.range, a.range.start);

/**
 * The declarations of the symbol at `at` on both sides of a Python stub:
 * where the server defines and declares it (pyright: the implementation,
 * and the stub it resolves through), and the stubs that declare that
 * implementation, each taken only where the server's definition there is
 * the implementation again. Empty where the declarations are not both in
 * a stub and in its implementation, in the root.
 */
export async function stubSides(
  session: Session,
  at: TextDocumentPositionParams,
  alsoIn: string[],
  ctx: HandlerContext,
  deadline: Deadline,
  options: RequestOptions,
): Promise<Place[]> {
  const root = session.client.root;
  const atPath = uriToPath(at.textDocument.uri);
  const name = atPath && nameAt(session, ctx, atPath, at.position);
  if (!name || !stubPair(atPath)) return [];
  const declared: Place[] = [];
  for (const d of await declarationsAt(session, at, options)) {
    const path = uriToPath(d.uri);
    // A library's (typeshed's, site-packages') or another name's declaration (an import renaming it) is not joined.
    if (!path || !isWithin(path, root) || !stubPair(path) || !existsSync(path)) continue;
    if (nameAt(session, ctx, path, d.range.start) !== name) continue;
    if (!declared.some((k) => samePlace(k, d))) declared.push(d);
  }
  const sides = [...declared];
  const files = [...new Set(alsoIn)];
  for (const impl of declared.filter((d) => !isStub(uriToPath(d.uri) ?? ''))) {
    const path = uriToPath(impl.uri) ?? '';
    const stubs = stubFiles(path, files, root, name);
    const chain = stubs.length ? chainAt(await treeOf(session, path, ctx, deadline), impl.range.start) : undefined;
    if (!chain) continue;
    for (const file of stubs) {
      for (const range of namedBy(await treeOf(session, file, ctx, deadline), chain)) {
        const stub = { uri: session.docs.uri(file), range };
        if (sides.length >= MAX_SIDES || sides.some((k) => samePlace(k, stub))) continue;
        // The server's word that the stub declares this implementation: its definition there is it.
        const params = { textDocument: { uri: stub.uri }, position: range.start };
        const defined = flattenLocations(await session.client.request(Requests.definition, params, options));
        if (defined.some((d) => isDeclaration(d, declared))) sides.push(stub);
      }
    }
  }
  const stubbed = sides.some((s) => isStub(uriToPath(s.uri) ?? ''));
  const implemented = sides.some((s) => !isStub(uriToPath(s.uri) ?? ''));
  return stubbed && implemented ? sides.slice(0, MAX_SIDES) : [];
}

/**
 * A question asked at `at`, then at each declaration across the stub that
 * `at` does not already name (stubSides, with the files of the first
 * answer for its re-exports): every answer, the first the target's, and
 * the declarations found. `ask` is told which declaration it is asked at.
 */
export async function acrossStubs<T>(
  session: Session,
  at: TextDocumentPositionParams,
  ask: (at: TextDocumentPositionParams, side?: Place) => Promise<T>,
  filesOf: (answer: T) => string[],
  ctx: HandlerContext,
  deadline: Deadline,
  options: RequestOptions,
): Promise<{ answers: T[]; sides: Place[] }> {
  const first = await ask(at);
  const sides = await stubSides(session, at, filesOf(first), ctx, deadline, options);
  const target: Place = { uri: at.textDocument.uri, range: { start: at.position, end: at.position } };
  const answers = [first];
  for (const side of sides) {
    if (samePlace(target, side)) continue;
    const path = uriToPath(side.uri);
    if (!path) continue;
    await session.docs.sync(path);
    answers.push(await ask({ textDocument: { uri: session.docs.uri(path) }, position: side.range.start }, side));
  }
  if (answers.length > 1) ctx.log(`${session.client.spec.id}: asked at ${answers.length} declarations across a stub`);
  return { answers, sides };
}

const taken = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * A Python module moves with its stub, and a stub with its module: the
 * other file of the pair beside `from`, as a move beside `to`; undefined
 * where there is none. Moved alone, the stub would go on declaring a module
 * gone (its importers' imports resolved, and failing when run), or the
 * module would lose its types. A new name that would split the pair, or a
 * pair's new path that is taken, is refused (exit 2), nothing moved.
 */
export function pairedMove(from: string, to: string, cwd: string): Move | undefined {
  const pair = stubPair(from);
  if (!pair || !existsSync(pair)) return undefined;
  const pairTo = stubPair(to);
  const what = isStub(from) ? 'module' : 'stub';
  if (!pairTo || isStub(to) !== isStub(from))
    throw usage(
      `${displayPath(from, cwd)} moves with its ${what} ${displayPath(pair, cwd)}: name a new path ending in ${isStub(from) ? '.pyi' : '.py'}, so the ${what} follows; nothing was moved`,
    );
  if (taken(pairTo))
    throw usage(
      `${displayPath(from, cwd)} moves with its ${what} ${displayPath(pair, cwd)}, and ${displayPath(pairTo, cwd)} exists; nothing was moved (name a path whose ${what} is free)`,
    );
  return { from: pair, to: pairTo };
}
