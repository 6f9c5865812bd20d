/**
 * A SCIP index, read once and held: every document's occurrences sorted by
 * place, every symbol's definitions and references, and what the indexer
 * said of each symbol (documentation, signature, relationships). Answers
 * only what the index holds: a place or a symbol it has nothing for is
 * undefined, and the question goes to a live server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Protobuf from 'protobufjs';
import { LspqError } from '../errors';
import type { PositionEncoding } from '../lsp/position';
import { uriToPath } from '../lsp/uri';
import { ENCODING_UTF8, ENCODING_UTF32, ROLE_DEFINITION, SCIP_PROTO } from './scip-schema';

/** A range as SCIP gives it, 0-based, characters in the document's encoding. */
export interface ScipRange {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

export interface ScipOccurrence extends ScipRange {
  symbol: string;
  roles: number;
}

export interface ScipDocument {
  /** Absolute. */
  path: string;
  encoding: PositionEncoding;
  occurrences: ScipOccurrence[];
}

export interface ScipSymbol {
  documentation: string[];
  signature?: { language: string; text: string };
  displayName?: string;
  relationships: { symbol: string; reference: boolean; implementation: boolean; typeDefinition: boolean }[];
}

/** A place an index answer points at. */
export interface ScipPlace extends ScipRange {
  path: string;
  encoding: PositionEncoding;
}

interface RawOccurrence {
  range?: number[];
  symbol?: string;
  symbolRoles?: number;
}
interface RawSymbol {
  symbol?: string;
  documentation?: string[];
  relationships?: {
    symbol?: string;
    isReference?: boolean;
    isImplementation?: boolean;
    isTypeDefinition?: boolean;
  }[];
  displayName?: string;
  signatureDocumentation?: { language?: string; text?: string };
}
interface RawDocument {
  relativePath?: string;
  occurrences?: RawOccurrence[];
  symbols?: RawSymbol[];
  positionEncoding?: number;
}
interface RawIndex {
  metadata?: { projectRoot?: string; toolInfo?: { name?: string } };
  documents?: RawDocument[];
  externalSymbols?: RawSymbol[];
}

let indexType: Protobuf.Type | undefined;
/** protobufjs is loaded when the first index is read: a question without one never pays for it. */
function decoder(): Protobuf.Type {
  const protobuf = require('protobufjs') as typeof Protobuf;
  indexType ??= protobuf.parse(SCIP_PROTO, { keepCase: false }).root.lookupType('scip.Index');
  return indexType;
}

const ENCODINGS: Record<number, PositionEncoding> = { [ENCODING_UTF8]: 'utf-8', [ENCODING_UTF32]: 'utf-32' };

function rangeOf(r: number[] | undefined): ScipRange | undefined {
  if (!r || (r.length !== 3 && r.length !== 4)) return undefined;
  const [line, character, a, b] = r as [number, number, number, number?];
  return b === undefined
    ? { line, character, endLine: line, endCharacter: a }
    : { line, character, endLine: a, endCharacter: b };
}

const isLocal = (symbol: string) => symbol.startsWith('local ');

/** A range's size, lines first: the smaller of two enclosing ranges is the inner one. */
const span = (r: ScipRange) => (r.endLine - r.line) * 1_000_000 + (r.endCharacter - r.character);

export class ScipIndex {
  readonly documents = new Map<string, ScipDocument>();
  readonly symbols = new Map<string, ScipSymbol>();
  /** Each symbol's occurrences across documents, built when first asked. */
  private places: Map<string, { doc: ScipDocument; occ: ScipOccurrence }[]> | undefined;
  /** Symbols that say they implement (or are references of) a symbol, by that symbol. */
  private inverse: Map<string, { symbol: string; reference: boolean; implementation: boolean }[]> | undefined;

  private constructor(
    readonly file: string,
    readonly root: string,
    readonly tools: string[],
    readonly bytes: number,
  ) {}

  /**
   * Reads an index. `root` is where its relative paths start when the
   * index's own project root is not this machine's (an index built in CI).
   */
  static load(file: string, fallbackRoot: string): ScipIndex {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      throw new LspqError('file_not_found', `the index ${file} cannot be read; build it with 'lspq index'`);
    }
    let raw: RawIndex;
    try {
      raw = decoder().toObject(decoder().decode(bytes), { longs: Number, defaults: false }) as RawIndex;
    } catch (err) {
      throw new LspqError(
        'usage',
        `${file} is not a SCIP index (${(err as Error).message.split('\n')[0]}); build it again with 'lspq index'`,
      );
    }
    if (!raw.documents?.length && !raw.metadata)
      throw new LspqError('usage', `${file} holds no SCIP documents; build it again with 'lspq index'`);
    const stated = raw.metadata?.projectRoot ? uriToPath(raw.metadata.projectRoot) : undefined;
    const root = stated && existsDir(stated) ? stated.replace(/\/$/, '') : fallbackRoot;
    const index = new ScipIndex(
      file,
      root,
      raw.metadata?.toolInfo?.name ? [raw.metadata.toolInfo.name] : [],
      bytes.length,
    );
    for (const d of raw.documents ?? []) index.addDocument(d);
    for (const s of raw.externalSymbols ?? []) index.addSymbol(s);
    return index;
  }

  private addDocument(d: RawDocument): void {
    if (!d.relativePath) return;
    const path = join(this.root, d.relativePath);
    // The indexers here that leave the encoding unspecified (TypeScript's, Python's) count UTF-16 units.
    const encoding = ENCODINGS[d.positionEncoding ?? 0] ?? 'utf-16';
    const occurrences: ScipOccurrence[] = [];
    for (const o of d.occurrences ?? []) {
      const range = rangeOf(o.range);
      if (range && o.symbol) occurrences.push({ ...range, symbol: o.symbol, roles: o.symbolRoles ?? 0 });
    }
    occurrences.sort((a, b) => a.line - b.line || a.character - b.character);
    // A file indexed twice (two indexers, or a concatenated index) keeps both sets.
    const known = this.documents.get(path);
    if (known) known.occurrences.push(...occurrences);
    else this.documents.set(path, { path, encoding, occurrences });
    for (const s of d.symbols ?? []) this.addSymbol(s);
  }

  private addSymbol(s: RawSymbol): void {
    if (!s.symbol) return;
    const sig = s.signatureDocumentation;
    this.symbols.set(s.symbol, {
      documentation: s.documentation ?? [],
      ...(sig?.text ? { signature: { language: sig.language ?? '', text: sig.text } } : {}),
      ...(s.displayName ? { displayName: s.displayName } : {}),
      relationships: (s.relationships ?? [])
        .filter((r) => r.symbol)
        .map((r) => ({
          symbol: r.symbol!,
          reference: r.isReference === true,
          implementation: r.isImplementation === true,
          typeDefinition: r.isTypeDefinition === true,
        })),
    });
  }

  /** The occurrence at a 0-based place of a document (characters in its encoding), innermost first. */
  at(path: string, line: number, character: number): ScipOccurrence | undefined {
    const doc = this.documents.get(path);
    if (!doc) return undefined;
    // The innermost: rust-analyzer also records a module's definition over the whole file.
    let best: ScipOccurrence | undefined;
    for (const o of doc.occurrences) {
      if (o.line > line) break;
      const inside =
        (o.line < line || o.character <= character) &&
        (o.endLine > line || (o.endLine === line && o.endCharacter >= character));
      if (inside && (!best || span(o) < span(best))) best = o;
    }
    return best;
  }

  private occurrencesOf(symbol: string): { doc: ScipDocument; occ: ScipOccurrence }[] {
    if (!this.places) {
      this.places = new Map();
      for (const doc of this.documents.values())
        for (const occ of doc.occurrences) {
          const list = this.places.get(occ.symbol) ?? [];
          list.push({ doc, occ });
          this.places.set(occ.symbol, list);
        }
    }
    // A local symbol is local to its document: the same name elsewhere is another symbol.
    return this.places.get(symbol) ?? [];
  }

  private related(symbol: string) {
    if (!this.inverse) {
      this.inverse = new Map();
      for (const [from, info] of this.symbols)
        for (const r of info.relationships) {
          const list = this.inverse.get(r.symbol) ?? [];
          list.push({ symbol: from, reference: r.reference, implementation: r.implementation });
          this.inverse.set(r.symbol, list);
        }
    }
    return this.inverse.get(symbol) ?? [];
  }

  private place(doc: ScipDocument, occ: ScipOccurrence): ScipPlace {
    const { line, character, endLine, endCharacter } = occ;
    return { path: doc.path, encoding: doc.encoding, line, character, endLine, endCharacter };
  }

  /** Where the symbol is defined in the index; empty for one defined outside the project (the library's). */
  definitions(symbol: string, inDoc?: string): ScipPlace[] {
    return this.occurrencesOf(symbol)
      .filter(({ doc, occ }) => occ.roles & ROLE_DEFINITION && (!isLocal(symbol) || doc.path === inDoc))
      .map(({ doc, occ }) => this.place(doc, occ));
  }

  /** Every occurrence of the symbol, and of the symbols the indexer says are references of it. */
  references(symbol: string, includeDeclaration: boolean, inDoc?: string): ScipPlace[] {
    const symbols = new Set([symbol]);
    for (const r of this.symbols.get(symbol)?.relationships ?? []) if (r.reference) symbols.add(r.symbol);
    for (const r of this.related(symbol)) if (r.reference) symbols.add(r.symbol);
    const out: ScipPlace[] = [];
    for (const s of symbols)
      for (const { doc, occ } of this.occurrencesOf(s)) {
        if (isLocal(s) && doc.path !== inDoc) continue;
        if (!includeDeclaration && occ.roles & ROLE_DEFINITION) continue;
        out.push(this.place(doc, occ));
      }
    return out;
  }

  /** The definitions of the symbols that say they implement this one. */
  implementations(symbol: string): ScipPlace[] {
    return this.related(symbol)
      .filter((r) => r.implementation)
      .flatMap((r) => this.definitions(r.symbol));
  }

  /** The definitions of the types the indexer says this symbol has. */
  typeDefinitions(symbol: string): ScipPlace[] {
    return (this.symbols.get(symbol)?.relationships ?? [])
      .filter((r) => r.typeDefinition)
      .flatMap((r) => this.definitions(r.symbol));
  }

  /** Non-local symbols whose name contains `query` (case-insensitive), at their definitions. */
  search(query: string): { name: string; symbol: string; place: ScipPlace }[] {
    const q = query.toLowerCase();
    const out: { name: string; symbol: string; place: ScipPlace }[] = [];
    for (const [symbol, info] of this.symbols) {
      // Workspace symbols are declarations: not locals, parameters, type parameters or files.
      if (isLocal(symbol) || /[)\]/]$/.test(symbol)) continue;
      const name = info.displayName ?? lastName(symbol);
      if (!name.toLowerCase().includes(q)) continue;
      for (const place of this.definitions(symbol)) out.push({ name, symbol, place });
    }
    return out;
  }
}

/** The last descriptor's name of a symbol (`scip-typescript npm pkg 1.0 src/`shape.ts`/Shape#area().` → area). */
export function lastName(symbol: string): string {
  const m = /([A-Za-z0-9_$+-]+|`(?:[^`]|``)+`)[#.:!/]?(?:\([^)]*\)\.)?$/.exec(symbol.trimEnd());
  return (m?.[1] ?? symbol).replace(/^`|`$/g, '').replace(/``/g, '`');
}

function existsDir(path: string): boolean {
  try {
    return (require('node:fs') as typeof import('node:fs')).statSync(path).isDirectory();
  } catch {
    return false;
  }
}
