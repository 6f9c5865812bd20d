/**
 * A SCIP index, read once and held compactly: each document's occurrences
 * in one Int32Array sorted by place, each symbol string once (occurrences
 * hold its number), each symbol's relationships, and where its
 * documentation is in the file (read when a hover asks: indexes of
 * documented libraries are mostly documentation). protobufjs reads the
 * wire format; the field numbers come from SCIP's schema (scip-schema.ts),
 * one field value at a time, as SCIP advises for large indexes. Answers
 * only what the index holds: a place or a symbol it has nothing for is
 * undefined, and the question goes to a live server.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type * as Protobuf from 'protobufjs';
import { LspqError, messageOf } from '../common/errors';
import { isRegularFile } from '../common/file-size';
import { isInside } from '../common/paths';
import { uriToPath } from '../lsp/uri';
import { type Found, foldName, IndexAnswers, innermost, readInfo, type Related, searchable } from './index-answers';
import { ROLE_DEFINITION } from './scip-schema';
import {
  ENCLOSING_STRIDE,
  type Enclosure,
  ENCODINGS,
  type Held,
  type RawMetadata,
  RawMetadataShape,
  type ScipDocument,
  type ScipOccurrence,
  type ScipPlace,
  type ScipSymbol,
  STRIDE,
  statedRootOf,
  symbolKey,
  symbolOf,
  types,
} from './scip-types';

export type { ScipDocument, ScipOccurrence, ScipPlace, ScipRange, ScipSymbol } from './scip-types';

export class ScipIndex extends IndexAnswers {
  readonly documents = new Map<string, ScipDocument>();
  /** Per symbol: its relationships and name now, where its documentation is in the file for later. */
  private readonly infos = new Map<string, Held>();
  /** Each symbol string once; occurrences hold its number. */
  private readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Each symbol's occurrences (document, offset) across documents, built when first asked. */
  private places: { docs: ScipDocument[]; starts: Int32Array; entries: Int32Array } | undefined;
  /** Symbols that say they implement (or are references of) a symbol, by that symbol. */
  private inverse: Map<string, { symbol: string; reference: boolean; implementation: boolean }[]> | undefined;
  root = '';
  tools: string[] = [];

  private constructor(
    readonly file: string,
    readonly bytes: number,
    /** The roots it names are another machine's (or checkout's): they start at `fallbackRoot` here. */
    private readonly rebase = false,
  ) {
    super();
  }

  document(path: string): ScipDocument | undefined {
    return this.documents.get(path);
  }

  /** Everything it read, for its on-disk table (index-table.ts). */
  contents() {
    return { documents: this.documents, names: this.names, infos: this.infos, root: this.root, tools: this.tools };
  }

  /**
   * Reads an index. `fallbackRoot` is where its relative paths start when
   * the index's own project root is not on this machine (an index built in
   * CI), or, with `rebase`, always (an index fetched for this checkout).
   */
  static load(file: string, fallbackRoot: string, rebase = false): ScipIndex {
    let bytes: Uint8Array;
    try {
      // Mapped, not read: the pages are the file's own, which the system takes back once parsed.
      bytes = mapFile(file);
    } catch {
      throw new LspqError('file_not_found', `the index ${file} cannot be read; build it with 'lspq index'`);
    }
    const index = new ScipIndex(file, bytes.length, rebase);
    try {
      index.read(bytes, fallbackRoot);
    } catch (err) {
      throw new LspqError(
        'usage',
        `${file} is not a SCIP index (${messageOf(err).split('\n')[0]}); build it again with 'lspq index'`,
      );
    }
    if (index.documents.size === 0)
      throw new LspqError('usage', `${file} holds no SCIP documents; build it again with 'lspq index'`);
    return index;
  }

  /** Index's fields one value at a time: metadata, each document, each external symbol. */
  private read(bytes: Uint8Array, fallbackRoot: string): void {
    const t = types();
    const reader = t.protobuf.Reader.create(bytes);
    const waiting: { start: number; end: number }[] = [];
    // Indexes joined end to end (one per project of a monorepo) each name their root before their documents.
    let root: string | undefined;
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (wire !== 2) {
        reader.skipType(wire);
        continue;
      }
      const length = reader.uint32();
      const start = reader.pos;
      if (field === t.index.metadata)
        root = this.rootOf(RawMetadataShape.safeParse(t.metadata.decode(reader, length)).data, fallbackRoot);
      else if (field === t.index.documents) {
        // Paths start at the root the metadata names; it comes first, else the documents wait for it.
        if (root) this.readDocument(reader, start + length, root);
        else waiting.push({ start, end: start + length });
        reader.pos = start + length;
      } else if (field === t.index.externalSymbols) this.holdSymbol(this.readSymbol(reader, start + length), '');
      else reader.skip(length);
    }
    root ??= this.rootOf(undefined, fallbackRoot);
    for (const w of waiting) {
      reader.pos = w.start;
      this.readDocument(reader, w.end, root);
    }
  }

  /** The root the first metadata named, as written (it may be another machine's). */
  private statedRoot: string | undefined;

  /**
   * Where a metadata's relative paths start: its project root where that
   * is on this machine; else (an index built in CI) `fallbackRoot`, or for
   * a later project below the first, the same place below `fallbackRoot`.
   * The first is the index's root.
   */
  private rootOf(metadata: RawMetadata | undefined, fallbackRoot: string): string {
    const stated = metadata?.projectRoot ? uriToPath(metadata.projectRoot)?.replace(/(.)\/$/, '$1') : undefined;
    let root = fallbackRoot;
    if (stated && !this.rebase && existsDir(stated)) root = stated;
    else if (stated && this.statedRoot && isInside(stated, this.statedRoot))
      root = join(this.root, relative(this.statedRoot, stated));
    if (!this.root) {
      this.root = root;
      this.statedRoot = stated;
    }
    const tool = metadata?.toolInfo?.name;
    if (tool && !this.tools.includes(tool)) this.tools.push(tool);
    return root;
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

  /** A Document's fields up to `end`: its path, encoding, occurrences and symbols. */
  private readDocument(reader: Protobuf.Reader, end: number, root: string): void {
    const f = types().document;
    let relative = '';
    let encodingCode = 0;
    // Symbols by their place in `symbols` until the path is known: a local's key names its document.
    const read: { rows: number[]; enclosing: number[]; symbols: string[] } = { rows: [], enclosing: [], symbols: [] };
    const infos: ReturnType<ScipIndex['readSymbol']>[] = [];
    while (reader.pos < end) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === f.relativePath && wire === 2) relative = reader.string();
      else if (field === f.positionEncoding && wire === 0) encodingCode = reader.int32();
      else if (field === f.occurrences && wire === 2) this.readOccurrence(reader, reader.uint32() + reader.pos, read);
      else if (field === f.symbols && wire === 2) infos.push(this.readSymbol(reader, reader.uint32() + reader.pos));
      else reader.skipType(wire);
    }
    // A file outside the project (a cgo file scip-go generated in Go's build cache) is none of its documents.
    if (!relative || relative.startsWith('../') || relative.startsWith('/')) return;
    const path = join(root, relative);
    for (const info of infos) this.holdSymbol(info, path);
    const numbers = read.symbols.map((symbol) => this.number(symbolKey(symbol, path)));
    const { rows } = read;
    for (let i = 4; i < rows.length; i += STRIDE) rows[i] = cell(numbers, cell(rows, i));
    const enclosing = read.enclosing;
    for (let i = 0; i < enclosing.length; i += ENCLOSING_STRIDE) enclosing[i] = cell(numbers, cell(enclosing, i));
    if (enclosing.length === 0) enclosing.push(...bracedBlocks(path, rows, this.names));
    // The indexers here that leave the encoding unspecified (TypeScript's, Python's) count UTF-16 units.
    const encoding = ENCODINGS[encodingCode] ?? 'utf-16';
    // A file indexed twice (two indexers over one file) keeps both sets.
    const known = this.documents.get(path);
    if (known) {
      rows.push(...known.occurrences);
      enclosing.push(...known.enclosing);
    }
    this.documents.set(path, {
      path,
      encoding,
      occurrences: sortedRows(rows, STRIDE, 0),
      enclosing: sortedRows(enclosing, ENCLOSING_STRIDE, 1),
    });
    this.places = undefined;
  }

  /**
   * An Occurrence's range, symbol and roles, appended to `read.rows`
   * (STRIDE numbers, the symbol as its place in `read.symbols`) when it
   * has a symbol; a definition's enclosing range to `read.enclosing`.
   */
  private readOccurrence(
    reader: Protobuf.Reader,
    end: number,
    read: { rows: number[]; enclosing: number[]; symbols: string[] },
  ): void {
    const f = types().occurrence;
    const range: number[] = [];
    const around: number[] = [];
    let typed: number[] | undefined;
    let symbol = '';
    let roles = 0;
    while (reader.pos < end) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if ((field === f.range || field === f.enclosingRange) && wire === 2) {
        const stop = reader.uint32() + reader.pos;
        const into = field === f.range ? range : around;
        while (reader.pos < stop) into.push(reader.int32());
      } else if (field === f.range && wire === 0) range.push(reader.int32());
      else if (field === f.enclosingRange && wire === 0) around.push(reader.int32());
      else if ((field === f.singleLineRange || field === f.multiLineRange) && wire === 2) {
        typed = typedRange(reader, reader.uint32() + reader.pos, field === f.singleLineRange);
      } else if (field === f.symbol && wire === 2) symbol = reader.string();
      else if (field === f.symbolRoles && wire === 0) roles = reader.int32();
      else reader.skipType(wire);
    }
    const chosen = typed ?? range;
    if (!symbol || (chosen.length !== 3 && chosen.length !== 4)) return;
    const n = read.symbols.push(symbol) - 1;
    read.rows.push(...fourOf(chosen), n, roles);
    if (roles & ROLE_DEFINITION && (around.length === 3 || around.length === 4))
      read.enclosing.push(n, ...fourOf(around), ...fourOf(chosen).slice(0, 2));
  }

  /** A SymbolInformation's name, display name and relationships; its documentation stays in the file. */
  private readSymbol(reader: Protobuf.Reader, end: number): { symbol: string; held: Held } {
    const t = types();
    const start = reader.pos;
    let symbol = '';
    let displayName: string | undefined;
    const relationships: ScipSymbol['relationships'] = [];
    while (reader.pos < end) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (field === t.info.symbol && wire === 2) symbol = reader.string();
      else if (field === t.info.displayName && wire === 2) displayName = reader.string();
      else if (field === t.info.relationships && wire === 2) {
        const r = readRelationship(reader, reader.uint32() + reader.pos);
        if (r.symbol) relationships.push(r);
      } else reader.skipType(wire);
    }
    return { symbol, held: { relationships, ...(displayName ? { displayName } : {}), at: [start, end] } };
  }

  /** A symbol's information held by its key: a local, and a local it relates to, are those of document `path`. */
  private holdSymbol({ symbol, held }: { symbol: string; held: Held }, path: string): void {
    if (!symbol) return;
    const relationships = held.relationships.map((r) => ({ ...r, symbol: symbolKey(r.symbol, path) }));
    this.infos.set(symbolKey(symbol, path), { ...held, relationships });
  }

  /** What the indexer said of a symbol, its documentation read from the index file now. */
  info(symbol: string): ScipSymbol | undefined {
    const held = this.infos.get(symbol);
    return held && readInfo(this.file, held.at, held);
  }

  private occurrence(doc: ScipDocument, i: number): ScipOccurrence {
    const o = doc.occurrences;
    return {
      line: cell(o, i),
      character: cell(o, i + 1),
      endLine: cell(o, i + 2),
      endCharacter: cell(o, i + 3),
      symbol: cell(this.names, cell(o, i + 4)),
      roles: cell(o, i + 5),
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
    const around: ScipOccurrence[] = [];
    for (let i = 0; i < o.length && cell(o, i) <= line; i += STRIDE) around.push(this.occurrence(doc, i));
    return innermost(around, line, character);
  }

  protected packageOf(path: string): string | undefined {
    const doc = this.documents.get(path);
    if (!doc) return undefined;
    const o = doc.occurrences;
    for (let i = 0; i < o.length; i += STRIDE) {
      const symbol = cell(this.names, cell(o, i + 4));
      if (cell(o, i + 5) & ROLE_DEFINITION && symbol.endsWith('/')) return symbol;
    }
    return undefined;
  }

  protected enclosuresOn(path: string, line: number): Enclosure[] {
    const doc = this.documents.get(path);
    if (!doc) return [];
    const e = doc.enclosing;
    const out: Enclosure[] = [];
    for (let i = 0; i < e.length && cell(e, i + 1) <= line; i += ENCLOSING_STRIDE)
      if (cell(e, i + 3) >= line)
        out.push({
          symbol: cell(this.names, cell(e, i)),
          line: cell(e, i + 1),
          character: cell(e, i + 2),
          endLine: cell(e, i + 3),
          endCharacter: cell(e, i + 4),
          name: { line: cell(e, i + 5), character: cell(e, i + 6) },
        });
    return out;
  }

  /**
   * Each symbol's occurrences, as one table: for symbol n, the entries
   * from starts[n] to starts[n + 1], two numbers each (document, offset).
   * Built when first asked, in two passes, with no object per occurrence.
   */
  private placesTable() {
    if (this.places) return this.places;
    const docs = [...this.documents.values()];
    const starts = new Int32Array(this.names.length + 1);
    for (const doc of docs)
      for (let i = 4; i < doc.occurrences.length; i += STRIDE) {
        const n = cell(doc.occurrences, i) + 1;
        starts[n] = cell(starts, n) + 1;
      }
    for (let n = 0; n < this.names.length; n++) starts[n + 1] = cell(starts, n + 1) + cell(starts, n);
    const entries = new Int32Array(cell(starts, this.names.length) * 2);
    const next = starts.slice(0, this.names.length);
    docs.forEach((doc, d) => {
      for (let i = 0; i < doc.occurrences.length; i += STRIDE) {
        const n = cell(doc.occurrences, i + 4);
        const at = cell(next, n);
        next[n] = at + 1;
        entries[at * 2] = d;
        entries[at * 2 + 1] = i;
      }
    });
    this.places = { docs, starts, entries };
    return this.places;
  }

  protected occurrencesOf(symbol: string): Found[] {
    const n = this.numbers.get(symbol);
    if (n === undefined) return [];
    const { docs, starts, entries } = this.placesTable();
    const out: Found[] = [];
    for (let k = cell(starts, n); k < cell(starts, n + 1); k++) {
      const doc = cell(docs, cell(entries, k * 2));
      const occ = this.occurrence(doc, cell(entries, k * 2 + 1));
      out.push({ place: this.place(doc, occ), roles: occ.roles });
    }
    return out;
  }

  protected relationships(symbol: string): ScipSymbol['relationships'] {
    return this.infos.get(symbol)?.relationships ?? [];
  }

  protected async named(folded: string): Promise<{ name: string; symbol: string }[]> {
    const out: { name: string; symbol: string }[] = [];
    for (const [symbol, info] of this.infos) {
      if (!searchable(symbol)) continue;
      const name = info.displayName ?? lastName(symbol);
      if (foldName(name).includes(folded)) out.push({ name, symbol });
    }
    return out;
  }

  protected related(symbol: string): Related[] {
    if (!this.inverse) {
      this.inverse = new Map();
      for (const [from, info] of this.infos)
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
}

/**
 * A cell of one of the index's packed tables (occurrence rows, the places
 * table, the symbol names): every read here is inside its table by
 * construction (offsets step by STRIDE over whole rows, symbol numbers
 * come from `number`, document numbers from the list they index), which
 * TypeScript cannot see. One unchecked read, not a branch per cell.
 */
function cell<T>(table: ArrayLike<T>, i: number): T {
  // biome-ignore lint/style/noNonNullAssertion: every caller reads inside the table (see above)
  return table[i]!;
}

/** A Relationship up to `end`, its fields by SCIP's numbers; a field left out is '' or false, as protobuf says. */
function readRelationship(reader: Protobuf.Reader, end: number): ScipSymbol['relationships'][number] {
  const f = types().relationship;
  const r = { symbol: '', reference: false, implementation: false, typeDefinition: false };
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === f.symbol && wire === 2) r.symbol = reader.string();
    else if (field === f.isReference && wire === 0) r.reference = reader.bool();
    else if (field === f.isImplementation && wire === 0) r.implementation = reader.bool();
    else if (field === f.isTypeDefinition && wire === 0) r.typeDefinition = reader.bool();
    else reader.skipType(wire);
  }
  return r;
}

/** A function's, a method's, a type's or a value's symbol (not a package's, a parameter's): what a place can sit in. */
const HOLDER = /(?:\([^)]*\)\.|#|[^/)]\.)$/;
/** A type's field (`Router#middlewares.`): one line, a place after its name sits in it. */
const FIELD = /#(?:[^#`(]+|`(?:[^`]|``)+`)\.$/;

/**
 * The enclosed ranges of a document whose indexer records none (scip-go
 * 0.2.9), from its file as formatted code writes them: a function's,
 * method's, type's or value's definition on a line that opens a brace
 * encloses up to the first later line at its indentation that closes one
 * (gofmt's, rustfmt's and prettier's `}`), its signature's lines included
 * where it is cut across several; a field's, or a declaration of one
 * line's, its own line.
 * ENCLOSING_STRIDE numbers each; none where the file cannot be read.
 */
function bracedBlocks(path: string, rows: number[], names: string[]): number[] {
  const defined: number[] = [];
  for (let i = 0; i < rows.length; i += STRIDE)
    if (cell(rows, i + 5) & ROLE_DEFINITION && HOLDER.test(cell(names, cell(rows, i + 4)))) defined.push(i);
  if (defined.length === 0) return [];
  let lines: string[];
  try {
    lines = readFileSync(path, 'utf8').split('\n');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const i of defined) {
    const line = cell(rows, i);
    const text = lines[line] ?? '';
    const symbol = cell(rows, i + 4);
    // A signature cut across lines (gofmt keeps a long one's parameters on the next) opens its brace further down.
    let opens = line;
    while (/[(,]$/.test((lines[opens] ?? '').trimEnd()) && opens < line + 8) opens++;
    if (!(lines[opens] ?? '').trimEnd().endsWith('{')) {
      // A field, or a declaration of one line (`type WalkFunc func(...) error`): its own line.
      if (FIELD.test(cell(names, symbol)) || opens === line)
        out.push(symbol, line, 0, line, Buffer.byteLength(text), line, cell(rows, i + 1));
      continue;
    }
    const indent = /^\s*/.exec(text)?.[0] ?? '';
    for (let end = opens + 1; end < lines.length; end++) {
      const closing = lines[end] ?? '';
      if (!closing.startsWith(`${indent}}`)) continue;
      out.push(symbol, line, 0, end, indent.length + 1, line, cell(rows, i + 1));
      break;
    }
  }
  return out;
}

/** Rows of `stride` numbers, packed in the order of their line (at `line`) and the character after it. */
function sortedRows(rows: number[], stride: number, line: number): Int32Array {
  const order = Array.from({ length: rows.length / stride }, (_, i) => i * stride);
  order.sort(
    (x, y) => cell(rows, x + line) - cell(rows, y + line) || cell(rows, x + line + 1) - cell(rows, y + line + 1),
  );
  const packed = new Int32Array(rows.length);
  order.forEach((from, i) => {
    for (let k = 0; k < stride; k++) packed[i * stride + k] = cell(rows, from + k);
  });
  return packed;
}

/** A range's three numbers (one line: line, start, end) or four as four: line, character, end line, end character. */
function fourOf(range: number[]): [number, number, number, number] {
  // Three or four numbers, checked by every caller: the defaults are never taken.
  const [line = 0, character = 0, a = 0, b] = range;
  return [line, character, b === undefined ? line : a, b === undefined ? a : b];
}

/**
 * A SingleLineRange (line, start, end: three numbers as the packed form)
 * or MultiLineRange (four) up to `end`; a field left out is 0, as protobuf says.
 */
function typedRange(reader: Protobuf.Reader, end: number, single: boolean): number[] {
  const values = single ? [0, 0, 0] : [0, 0, 0, 0];
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if ((tag & 7) === 0 && field >= 1 && field <= values.length) values[field - 1] = reader.int32();
    else reader.skipType(tag & 7);
  }
  return values;
}

/** The last descriptor's name of a symbol or its key (`scip-typescript npm pkg 1.0 src/`shape.ts`/Shape#area().` → area). */
export function lastName(key: string): string {
  const symbol = symbolOf(key);
  const m = /([A-Za-z0-9_$+-]+|`(?:[^`]|``)+`)[#.:!/]?(?:\([^)]*\)\.)?$/.exec(symbol.trimEnd());
  return (m?.[1] ?? symbol).replace(/^`|`$/g, '').replace(/``/g, '`');
}

/** The file's bytes, mapped read-only where the runtime can map (Bun), else read. */
/**
 * The root an index is read at whatever root it is offered (`load`
 * without rebase): the project root its first metadata names, where that
 * folder is on this machine; undefined where the offered root decides.
 */
export function ownRoot(file: string): string | undefined {
  const stated = statedRootOf(file);
  const root = stated ? uriToPath(stated)?.replace(/(.)\/$/, '$1') : undefined;
  return root && existsDir(root) ? root : undefined;
}

function mapFile(file: string): Uint8Array {
  // A FIFO where an index should be would block the read below for good: only a regular file is read.
  if (!isRegularFile(file))
    throw new LspqError('incomplete', `${file} is not a regular file; lspq reads no index from it`);
  const bun = (globalThis as { Bun?: { mmap?: (path: string, o?: { shared?: boolean }) => Uint8Array } }).Bun;
  if (bun?.mmap) {
    try {
      return bun.mmap(file, { shared: false });
    } catch {}
  }
  return readFileSync(file);
}

function existsDir(path: string): boolean {
  try {
    return (require('node:fs') as typeof import('node:fs')).statSync(path).isDirectory();
  } catch {
    return false;
  }
}
