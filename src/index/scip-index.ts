/**
 * A SCIP index, read once and held compactly: each document's occurrences
 * in one Int32Array sorted by place, each symbol string once (occurrences
 * hold its number), and what the indexer said of each symbol. Read one
 * document at a time (SCIP's advice for large indexes), each decoded by
 * protobufjs with the schema and dropped once packed. Answers only what
 * the index holds: a place or a symbol it has nothing for is undefined,
 * and the question goes to a live server.
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

/** Per occurrence: line, character, end line, end character, symbol number, roles. */
const STRIDE = 6;

export interface ScipDocument {
  /** Absolute. */
  path: string;
  encoding: PositionEncoding;
  /** STRIDE numbers per occurrence, sorted by place. */
  occurrences: Int32Array;
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
  relationships?: { symbol?: string; isReference?: boolean; isImplementation?: boolean; isTypeDefinition?: boolean }[];
  displayName?: string;
  signatureDocumentation?: { language?: string; text?: string };
}
interface RawDocument {
  relativePath?: string;
  occurrences?: RawOccurrence[];
  symbols?: RawSymbol[];
  positionEncoding?: number;
}
interface RawMetadata {
  projectRoot?: string;
  toolInfo?: { name?: string };
}

interface Schema {
  protobuf: typeof Protobuf;
  metadata: Protobuf.Type;
  document: Protobuf.Type;
  symbol: Protobuf.Type;
}
let schema: Schema | undefined;
/** protobufjs is loaded when the first index is read: a question without one never pays for it. */
function types(): Schema {
  if (!schema) {
    const protobuf = require('protobufjs') as typeof Protobuf;
    const root = protobuf.parse(SCIP_PROTO, { keepCase: false }).root;
    schema = {
      protobuf,
      metadata: root.lookupType('scip.Metadata'),
      document: root.lookupType('scip.Document'),
      symbol: root.lookupType('scip.SymbolInformation'),
    };
  }
  return schema;
}

const ENCODINGS: Record<number, PositionEncoding> = { [ENCODING_UTF8]: 'utf-8', [ENCODING_UTF32]: 'utf-32' };

const isLocal = (symbol: string) => symbol.startsWith('local ');

/** A range's size, lines first: the smaller of two enclosing ranges is the inner one. */
const span = (o: Int32Array, i: number) => (o[i + 2]! - o[i]!) * 1_000_000 + (o[i + 3]! - o[i + 1]!);

export class ScipIndex {
  readonly documents = new Map<string, ScipDocument>();
  readonly symbols = new Map<string, ScipSymbol>();
  /** Each symbol string once; occurrences hold its number. */
  private readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Each symbol's occurrences (document, offset) across documents, built when first asked. */
  private places: Map<number, { doc: ScipDocument; at: number }[]> | undefined;
  /** Symbols that say they implement (or are references of) a symbol, by that symbol. */
  private inverse: Map<string, { symbol: string; reference: boolean; implementation: boolean }[]> | undefined;
  root = '';
  tools: string[] = [];

  private constructor(
    readonly file: string,
    readonly bytes: number,
  ) {}

  /**
   * Reads an index. `fallbackRoot` is where its relative paths start when
   * the index's own project root is not on this machine (an index built in CI).
   */
  static load(file: string, fallbackRoot: string): ScipIndex {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      throw new LspqError('file_not_found', `the index ${file} cannot be read; build it with 'lspq index'`);
    }
    const index = new ScipIndex(file, bytes.length);
    try {
      index.read(bytes, fallbackRoot);
    } catch (err) {
      throw new LspqError(
        'usage',
        `${file} is not a SCIP index (${(err as Error).message.split('\n')[0]}); build it again with 'lspq index'`,
      );
    }
    if (index.documents.size === 0)
      throw new LspqError('usage', `${file} holds no SCIP documents; build it again with 'lspq index'`);
    return index;
  }

  /** Index's fields one value at a time: metadata (1), each document (2), each external symbol (3). */
  private read(bytes: Uint8Array, fallbackRoot: string): void {
    const t = types();
    const reader = t.protobuf.Reader.create(bytes);
    const documents: RawDocument[] = [];
    let metadata: RawMetadata | undefined;
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (wire === 2 && field === 1) metadata = t.metadata.decode(reader, reader.uint32()) as RawMetadata;
      else if (wire === 2 && field === 2) {
        // The root is known only once metadata is read (it comes first, but concatenated indexes repeat it).
        const doc = t.document.decode(reader, reader.uint32()) as RawDocument;
        if (metadata) this.addDocument(doc, this.rootOf(metadata, fallbackRoot));
        else documents.push(doc);
      } else if (wire === 2 && field === 3) this.addSymbol(t.symbol.decode(reader, reader.uint32()) as RawSymbol);
      else reader.skipType(wire);
    }
    const root = this.rootOf(metadata, fallbackRoot);
    for (const doc of documents) this.addDocument(doc, root);
  }

  private rootOf(metadata: RawMetadata | undefined, fallbackRoot: string): string {
    if (!this.root) {
      const stated = metadata?.projectRoot ? uriToPath(metadata.projectRoot) : undefined;
      this.root = stated && existsDir(stated) ? stated.replace(/\/$/, '') : fallbackRoot;
    }
    const tool = metadata?.toolInfo?.name;
    if (tool && !this.tools.includes(tool)) this.tools.push(tool);
    return this.root;
  }

  private number(symbol: string): number {
    let n = this.numbers.get(symbol);
    if (n === undefined) {
      n = this.names.length;
      this.names.push(symbol);
      this.numbers.set(symbol, n);
    }
    return n;
  }

  private addDocument(d: RawDocument, root: string): void {
    if (!d.relativePath) return;
    const path = join(root, d.relativePath);
    // The indexers here that leave the encoding unspecified (TypeScript's, Python's) count UTF-16 units.
    const encoding = ENCODINGS[d.positionEncoding ?? 0] ?? 'utf-16';
    const rows: number[][] = [];
    for (const o of d.occurrences ?? []) {
      const r = o.range;
      if (!o.symbol || !r || (r.length !== 3 && r.length !== 4)) continue;
      const [line, character, a, b] = r as [number, number, number, number?];
      const end = b === undefined ? [line, a] : [a, b];
      rows.push([line, character, end[0]!, end[1]!, this.number(o.symbol), o.symbolRoles ?? 0]);
    }
    // A file indexed twice (two indexers over one file) keeps both sets.
    const known = this.documents.get(path);
    if (known)
      for (let i = 0; i < known.occurrences.length; i += STRIDE)
        rows.push([...known.occurrences.subarray(i, i + STRIDE)]);
    rows.sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
    const occurrences = new Int32Array(rows.length * STRIDE);
    for (const [i, row] of rows.entries()) occurrences.set(row, i * STRIDE);
    this.documents.set(path, { path, encoding, occurrences });
    this.places = undefined;
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

  private occurrence(doc: ScipDocument, i: number): ScipOccurrence {
    const o = doc.occurrences;
    return {
      line: o[i]!,
      character: o[i + 1]!,
      endLine: o[i + 2]!,
      endCharacter: o[i + 3]!,
      symbol: this.names[o[i + 4]!]!,
      roles: o[i + 5]!,
    };
  }

  /** A document's occurrences, in place order. */
  occurrencesIn(doc: ScipDocument): ScipOccurrence[] {
    const out: ScipOccurrence[] = [];
    for (let i = 0; i < doc.occurrences.length; i += STRIDE) out.push(this.occurrence(doc, i));
    return out;
  }

  /** The innermost occurrence at a 0-based place of a document (characters in its encoding). */
  at(path: string, line: number, character: number): ScipOccurrence | undefined {
    const doc = this.documents.get(path);
    if (!doc) return undefined;
    const o = doc.occurrences;
    // rust-analyzer also records a module's definition over the whole file: the smallest enclosing range wins.
    let best = -1;
    for (let i = 0; i < o.length; i += STRIDE) {
      if (o[i]! > line) break;
      const inside =
        (o[i]! < line || o[i + 1]! <= character) && (o[i + 2]! > line || (o[i + 2] === line && o[i + 3]! >= character));
      if (inside && (best < 0 || span(o, i) < span(o, best))) best = i;
    }
    return best < 0 ? undefined : this.occurrence(doc, best);
  }

  private occurrencesOf(symbol: string): { doc: ScipDocument; occ: ScipOccurrence }[] {
    if (!this.places) {
      this.places = new Map();
      for (const doc of this.documents.values()) {
        const o = doc.occurrences;
        for (let i = 0; i < o.length; i += STRIDE) {
          const list = this.places.get(o[i + 4]!);
          if (list) list.push({ doc, at: i });
          else this.places.set(o[i + 4]!, [{ doc, at: i }]);
        }
      }
    }
    const n = this.numbers.get(symbol);
    return n === undefined
      ? []
      : (this.places.get(n) ?? []).map(({ doc, at }) => ({ doc, occ: this.occurrence(doc, at) }));
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

  /** Declarations (not locals, parameters, type parameters or files) whose name contains `query`, case-insensitive. */
  search(query: string): { name: string; symbol: string; place: ScipPlace }[] {
    const q = query.toLowerCase();
    const out: { name: string; symbol: string; place: ScipPlace }[] = [];
    for (const [symbol, info] of this.symbols) {
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
