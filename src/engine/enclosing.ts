/**
 * The symbol a place sits in (`in` on a reference or a call): the
 * innermost function, method, class or top-level value of the file's own
 * document symbols whose range holds the place, so "who uses this" needs
 * no second question; and the code declared at a place (a call item's
 * kind, the functions declared in it). The symbols are asked once per
 * version of a file's text (excerpts.ts caches them).
 */
import type { DocumentSymbol as LspDocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import type { CallerContext } from '../answers/caller';
import { LspqError } from '../common/errors';
import type { Enclosing, Span } from '../answers/places';
import { symbolKindName, symbolTree, toSpan } from '../lsp/convert';
import type { Session } from '../lsp/manager';
import type { Deadline, HandlerContext } from './context';
import { documentSymbols, symbolServer } from './excerpts';
import { textsOf } from './sessions';

/** A document symbol with code-point spans, as the walk below reads it. */
export interface Declared {
  name: string;
  kind: string;
  range: Span;
  selection: Span;
  children: Declared[];
  /** A flat answer's container name (SymbolInformation), where no tree says it. */
  container?: string;
}

/** Kinds that hold code a place can sit in. */
const CALLABLE = new Set(['function', 'method', 'constructor', 'operator', 'event']);
/** Kinds that name a value: one inside a function is a local, never what a reference sits in. */
const VALUE = new Set([
  'variable',
  'constant',
  'field',
  'property',
  'enummember',
  'key',
  'string',
  'number',
  'boolean',
  'array',
  'null',
  'typeparameter',
]);

const sameSpan = (a: Span, b: Span) =>
  a.line === b.line && a.column === b.column && a.endLine === b.endLine && a.endColumn === b.endColumn;

const holds = (s: Span, line: number, column: number) =>
  (line > s.line || (line === s.line && column >= s.column)) &&
  (line < s.endLine || (line === s.endLine && column <= s.endColumn));

/**
 * A symbol's name as code writes it: gopls's `(*Circle).Area` is
 * `Circle.Area`, rust-analyzer's `impl Shape for Circle` is `Circle`.
 */
export function codeName(name: string): string {
  const method = /^\(\*?([^)]+)\)\.(.+)$/.exec(name);
  if (method) return `${method[1]}.${method[2]}`;
  return implType(name) ?? name;
}

/** How deep in brackets (`<>`, `()`, `[]`; a `->` arrow none) each character of `text` is, a bracket itself inside. */
function depths(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '(' || c === '[' || c === '<') depth++;
    out.push(depth);
    const arrow = c === '>' && text[i - 1] === '-';
    if ((c === ')' || c === ']' || c === '>') && !arrow) depth = Math.max(0, depth - 1);
  }
  return out;
}

/** Where `pattern` first matches `text` outside every bracket. */
function topLevel(text: string, pattern: RegExp): { at: number; length: number } | undefined {
  const depth = depths(text);
  const sticky = new RegExp(pattern.source, 'y');
  for (let i = 0; i < text.length; i++) {
    if (depth[i] !== 0) continue;
    sticky.lastIndex = i;
    const m = sticky.exec(text);
    if (m) return { at: i, length: m[0].length };
  }
  return undefined;
}

/** `type` without its generic arguments outside every bracket: `Wrapper<T>` is `Wrapper`, `(Vec<T>, U)` stays. */
function withoutGenerics(type: string): string {
  const depth = depths(type);
  let angle = 0;
  let kept = '';
  for (let i = 0; i < type.length; i++) {
    const c = type.charAt(i);
    // An angle bracket opened at the top: all of it up to its close is left out.
    if (angle === 0 && c === '<' && depth[i] === 1) angle = 1;
    else if (angle > 0 && c === '<') angle++;
    else if (angle > 0 && c === '>' && type[i - 1] !== '-') angle--;
    else if (angle === 0) kept += c;
  }
  return kept;
}

/**
 * The type of rust-analyzer's `impl [<..>] [Trait for] Type [where ..]`, its
 * generic arguments dropped (`Wrapper<T>` is `Wrapper`) and the rest whole
 * (`&(A, B)`, `[T; 3]`); undefined for a name that is no impl. Pure.
 */
export function implType(name: string): string | undefined {
  if (!/^impl[\s<]/.test(name)) return undefined;
  let rest = name.slice('impl'.length);
  // The impl's own generic parameters, `impl<A, B>`, are no part of the type.
  if (rest.startsWith('<')) {
    const end = depths(rest).indexOf(0);
    rest = end < 0 ? '' : rest.slice(end);
  }
  const trait = topLevel(rest, /\s+for\s+/);
  let type = trait ? rest.slice(trait.at + trait.length) : rest;
  const where = topLevel(type, /\s+where\b/);
  if (where) type = type.slice(0, where.at);
  const shown = withoutGenerics(type).trim();
  return shown === '' ? undefined : shown;
}

/**
 * The innermost symbol whose range holds the place and whose name does
 * not (a declaration is in what contains it, not in itself), locals of a
 * function passed over; qualified by the symbol it is declared in, as
 * `--symbol` takes it (`Circle.area`). Pure.
 */
export function enclosingSymbol(symbols: Declared[], line: number, column: number): Enclosing | undefined {
  let found: { symbol: Declared; parent?: Declared } | undefined;
  const walk = (list: Declared[], parent: Declared | undefined, inCallable: boolean) => {
    const around = list.filter((s) => holds(s.range, line, column));
    for (const s of around) {
      // One statement that names several (jedi's `from m import A, B`: each the whole line) holds none of them.
      if (around.some((o) => o !== s && sameSpan(o.range, s.range))) continue;
      if (inCallable && VALUE.has(s.kind)) continue;
      if (!holds(s.selection, line, column)) found = { symbol: s, ...(parent ? { parent } : {}) };
      walk(s.children, s, inCallable || CALLABLE.has(s.kind));
    }
  };
  walk(symbols, undefined, false);
  if (!found) return undefined;
  const own = codeName(found.symbol.name);
  const outer = found.parent && found.parent.kind !== 'file' ? codeName(found.parent.name) : found.symbol.container;
  return { name: outer && !own.includes('.') ? `${outer}.${own}` : own, kind: found.symbol.kind };
}

/** Each cached answer's symbols with code-point spans, made once: the pool keeps the answer while the text is the same. */
const converted = new WeakMap<object, Declared[]>();

/** A document symbol answer, nested or flat, with code-point spans. */
function declared(
  raw: (LspDocumentSymbol | SymbolInformation)[],
  path: string,
  session: Session,
  ctx: HandlerContext,
): Declared[] {
  const made = converted.get(raw);
  if (made) return made;
  const fresh = convert(raw, path, session, ctx);
  converted.set(raw, fresh);
  return fresh;
}

function convert(
  raw: (LspDocumentSymbol | SymbolInformation)[],
  path: string,
  session: Session,
  ctx: HandlerContext,
): Declared[] {
  const texts = textsOf(session, ctx);
  const span = (r: LspDocumentSymbol['range']) => toSpan(path, r, texts, session.client.encoding);
  const answer = symbolTree(raw);
  if ('flat' in answer)
    return answer.flat.map((s) => {
      const range = span(s.location.range);
      return {
        name: s.name,
        kind: symbolKindName(s.kind),
        range,
        // A flat answer gives one range: its name is taken to be where it starts.
        selection: { line: range.line, column: range.column, endLine: range.line, endColumn: range.column },
        children: [],
        ...(s.containerName ? { container: s.containerName } : {}),
      };
    });
  const tree = (list: LspDocumentSymbol[]): Declared[] =>
    list.map((s) => ({
      name: s.name,
      kind: symbolKindName(s.kind),
      range: span(s.range),
      selection: span(s.selectionRange),
      children: tree(s.children ?? []),
    }));
  return tree(answer.tree);
}

/** A file's document symbols, by path. */
export type SymbolsOf = (path: string) => Promise<Declared[]>;

/**
 * Each file's document symbols, asked of that file's own server (whatever
 * --server chose to answer: a .svelte file's uses found by tsserver) once
 * per file for the answer being made.
 */
export function symbolsOfFiles(
  answering: Session,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
): SymbolsOf {
  const byFile = new Map<string, Promise<Declared[]>>();
  const { server: _chosen, ...anyServer } = req;
  return (path) => {
    let found = byFile.get(path);
    if (!found) {
      found = (async () => {
        try {
          const session = await symbolServer(path, answering, anyServer, ctx);
          if (!session?.client.capabilities.documentSymbolProvider) return [];
          // Opened only to be asked, and closed after: left open, a hundred files changed on disk at once next
          // were taken in late by typescript-language-server (447 of 450 references after a sed).
          const wasOpen = session.docs.isOpen(path);
          try {
            return declared(await documentSymbols(session, path, ctx, deadline), path, session, ctx);
          } finally {
            if (!wasOpen) await session.docs.close(path);
          }
        } catch (err) {
          // What the symbols add is extra to the answer: a file whose server cannot say has none, and the answer stands.
          if (!(err instanceof LspqError) || err.code === 'timeout') throw err;
          ctx.log(`no symbols of ${path}: ${err.message}`);
          return [];
        }
      })();
      byFile.set(path, found);
    }
    return found;
  };
}

/** Adds `in`, the symbol each place sits in, from each file's document symbols (asked of that file's server). */
export async function withEnclosing<T extends { path: string; line: number; column: number }>(
  places: T[],
  answering: Session,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
  symbolsOf: SymbolsOf = symbolsOfFiles(answering, req, ctx, deadline),
): Promise<(T & { in?: Enclosing })[]> {
  const out: (T & { in?: Enclosing })[] = [];
  for (const p of places) {
    // A place outside every file (a URI a server made up) sits in nothing lspq can read.
    const within = p.path.startsWith('/') ? enclosingSymbol(await symbolsOf(p.path), p.line, p.column) : undefined;
    out.push(within ? { ...p, in: within } : p);
  }
  return out;
}

/**
 * The code declared at a place (a call hierarchy item's name): the
 * innermost document symbol whose name holds it, where that symbol is code
 * that runs (a function, a method, a constructor...); else undefined. Pure.
 */
export function declaredAt(symbols: Declared[], line: number, column: number): Declared | undefined {
  let found: Declared | undefined;
  const walk = (list: Declared[]) => {
    for (const s of list) {
      if (!holds(s.range, line, column)) continue;
      if (CALLABLE.has(s.kind) && holds(s.selection, line, column)) found = s;
      walk(s.children);
    }
  };
  walk(symbols);
  return found;
}

/** The functions, methods and the like declared inside a symbol, at any depth. Pure. */
export function callablesWithin(symbol: Declared): Declared[] {
  return symbol.children.flatMap((c) => [...(CALLABLE.has(c.kind) ? [c] : []), ...callablesWithin(c)]);
}

/**
 * What a server called a function, with the kind its file's document
 * symbols give it: gopls and rust-analyzer call every item of a call
 * hierarchy a function, where their document symbols say method.
 */
export async function withDeclaredKinds<T extends { path: string; line: number; column: number; kind: string }>(
  places: T[],
  symbolsOf: SymbolsOf,
): Promise<T[]> {
  const out: T[] = [];
  for (const p of places) {
    const kind =
      p.kind === 'function' && p.path.startsWith('/')
        ? declaredAt(await symbolsOf(p.path), p.line, p.column)?.kind
        : undefined;
    out.push(kind ? { ...p, kind } : p);
  }
  return out;
}
