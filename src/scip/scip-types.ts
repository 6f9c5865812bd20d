/**
 * What a SCIP index holds, as lspq reads it: ranges, occurrences,
 * documents, symbols and places, and the part of SCIP's schema the reader
 * walks (scip-schema.ts), parsed by protobufjs when the first index is read.
 */
import type * as Protobuf from 'protobufjs';
import { z } from 'zod';
import type { PositionEncoding } from '../lsp/position';
import { ENCODING_UTF8, ENCODING_UTF32, SCIP_PROTO } from './scip-schema';

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
export const STRIDE = 6;

export interface ScipDocument {
  /** Absolute. */
  path: string;
  encoding: PositionEncoding;
  /** STRIDE numbers per occurrence, sorted by place. */
  occurrences: Int32Array;
  /** The ranges the definitions here enclose (a function's body), ENCLOSING_STRIDE numbers each. */
  enclosing: Int32Array;
}

/** A symbol as held: its documentation stays in the file (`at`: where its SymbolInformation is). */
export interface Held {
  relationships: ScipSymbol['relationships'];
  displayName?: string;
  at: [number, number];
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

/** A place of an index answer with the symbol (its key) that stands there: what the file must write at it. */
export interface SymbolPlace extends ScipPlace {
  symbol: string;
}

/**
 * Per range a definition encloses (a function's body, a class's): its
 * symbol's number, the range's line, character, end line and end
 * character, and where the definition's name starts (line, character).
 */
export const ENCLOSING_STRIDE = 7;

/** A range a definition encloses, with its symbol (key) and where its name starts: what a place sits in. */
export interface Enclosure extends ScipRange {
  symbol: string;
  name: { line: number; character: number };
}

/** The fields lspq reads of a SymbolInformation protobufjs decoded from an index file: checked, the file is anyone's. */
export const RawSymbolShape = z.object({
  documentation: z.array(z.string()).optional(),
  signatureDocumentation: z.object({ language: z.string().optional(), text: z.string().optional() }).nullish(),
});
/** The fields lspq reads of a Metadata protobufjs decoded from an index file. */
export const RawMetadataShape = z.object({
  projectRoot: z.string().optional(),
  toolInfo: z.object({ name: z.string().optional() }).nullish(),
});
export type RawMetadata = z.infer<typeof RawMetadataShape>;

export interface Schema {
  protobuf: typeof Protobuf;
  metadata: Protobuf.Type;
  symbol: Protobuf.Type;
  /** The field numbers lspq walks, by message and field name, from the schema. */
  index: Record<'metadata' | 'documents' | 'externalSymbols', number>;
  document: Record<'relativePath' | 'occurrences' | 'symbols' | 'positionEncoding', number>;
  occurrence: Record<
    'range' | 'symbol' | 'symbolRoles' | 'enclosingRange' | 'singleLineRange' | 'multiLineRange',
    number
  >;
  info: Record<'symbol' | 'relationships' | 'displayName', number>;
  relationship: Record<'symbol' | 'isReference' | 'isImplementation' | 'isTypeDefinition', number>;
}

function ids<K extends string>(type: Protobuf.Type, names: readonly K[]): Record<K, number> {
  const out: Partial<Record<K, number>> = {};
  for (const n of names) {
    const field = type.fields[n];
    if (!field) throw new Error(`internal: SCIP's schema has no field ${type.name}.${n}`);
    out[n] = field.id;
  }
  // Every name was given its number just above; Partial cannot know that.
  return out as Record<K, number>;
}
let schema: Schema | undefined;
/** protobufjs is loaded when the first index is read: a question without one never pays for it. */
export function types(): Schema {
  if (!schema) {
    const protobuf = require('protobufjs') as typeof Protobuf;
    const root = protobuf.parse(SCIP_PROTO, { keepCase: false }).root;
    const type = (name: string) => root.lookupType(`scip.${name}`);
    schema = {
      protobuf,
      metadata: type('Metadata'),
      symbol: type('SymbolInformation'),
      index: ids(type('Index'), ['metadata', 'documents', 'externalSymbols']),
      document: ids(type('Document'), ['relativePath', 'occurrences', 'symbols', 'positionEncoding']),
      occurrence: ids(type('Occurrence'), [
        'range',
        'symbol',
        'symbolRoles',
        'enclosingRange',
        'singleLineRange',
        'multiLineRange',
      ]),
      info: ids(type('SymbolInformation'), ['symbol', 'relationships', 'displayName']),
      relationship: ids(type('Relationship'), ['symbol', 'isReference', 'isImplementation', 'isTypeDefinition']),
    };
  }
  return schema;
}

export const ENCODINGS: Record<number, PositionEncoding> = { [ENCODING_UTF8]: 'utf-8', [ENCODING_UTF32]: 'utf-32' };

export const isLocal = (symbol: string) => symbol.startsWith('local ');

/**
 * A symbol as an index holds it: SCIP scopes a `local N` to its document
 * (`local 5` of two files are two symbols), so a local's key names its
 * document; any other symbol is its own key.
 */
export const symbolKey = (symbol: string, path: string) => (isLocal(symbol) ? `${symbol}\t${path}` : symbol);

/** The symbol a key holds, as SCIP writes it (a local id has no tab: SCIP's are simple identifiers). */
export function symbolOf(key: string): string {
  const tab = key.indexOf('\t');
  return isLocal(key) && tab >= 0 ? key.slice(0, tab) : key;
}

/** An Index holding only a Metadata naming `root`: put first, it makes `root` the index's root. */
export function rootMetadata(root: string): Buffer {
  const t = types();
  const { pathToFileURL } = require('node:url') as typeof import('node:url');
  const metadata = t.metadata.encode({ projectRoot: pathToFileURL(root).href }).finish();
  const writer = t.protobuf.Writer.create();
  writer.uint32((t.index.metadata << 3) | 2).bytes(metadata);
  return Buffer.from(writer.finish());
}

/** SCIP's field numbers of Index.metadata and Metadata.project_root (scip-schema.ts; a unit test holds them to it). */
export const HEAD_FIELDS = { metadata: 1, projectRoot: 3 } as const;

/** How much of an index's head is read for its root: its first metadata is a few hundred bytes. */
const HEAD_BYTES = 64 * 1024;

/**
 * The project root an index's first metadata names (a file: URI), read
 * from the first bytes of the file without protobufjs (loading it costs a
 * question 80-100 ms): the fields before it skipped by their lengths.
 * Undefined where the head holds no metadata naming one.
 */
export function statedRootOf(file: string): string | undefined {
  const { closeSync, constants, fstatSync, openSync, readSync } = require('node:fs') as typeof import('node:fs');
  const head = Buffer.alloc(HEAD_BYTES);
  let size: number;
  try {
    // Without blocking, and only a regular file: a FIFO named like an index is not waited on.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) return undefined;
      size = readSync(fd, head, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const bytes = head.subarray(0, size);
  let at = 0;
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = bytes[at];
      if (b === undefined) return undefined;
      at++;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    return undefined;
  };
  /** The fields of bytes[from, to): `field`'s length-delimited value, skipping the others. */
  const find = (to: number, field: number): { start: number; end: number } | undefined => {
    while (at < to) {
      const tag = varint();
      if (tag === undefined) return undefined;
      const wire = tag & 7;
      if (wire === 0) {
        if (varint() === undefined) return undefined;
        continue;
      }
      if (wire !== 2) return undefined; // SCIP writes no fixed-size fields before its metadata
      const length = varint();
      if (length === undefined || at + length > to) return undefined;
      if (tag >>> 3 === field) return { start: at, end: at + length };
      at += length;
    }
    return undefined;
  };
  const metadata = find(bytes.length, HEAD_FIELDS.metadata);
  if (!metadata) return undefined;
  at = metadata.start;
  const root = find(metadata.end, HEAD_FIELDS.projectRoot);
  return root ? bytes.subarray(root.start, root.end).toString('utf8') : undefined;
}
