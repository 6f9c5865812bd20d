/**
 * LSP answers normalized at the boundary: Location | LocationLink, the three
 * hover forms, symbol kinds and server positions all become plain places
 * with absolute paths and 1-based code-point positions (the answers are
 * built from them; this layer knows nothing of lspq's answers).
 */
import { statSync } from 'node:fs';
import type {
  DocumentSymbol,
  Hover,
  Location as LspLocation,
  LocationLink,
  MarkedString,
  MarkupContent,
  Position,
  Range,
  SymbolInformation,
  SymbolKind,
} from 'vscode-languageserver-protocol';
import { SYMBOL_KINDS } from '../common/symbol-kinds';
import { fromServerCharacter, splitLines, type PositionEncoding } from './position';
import { BoundedCache } from '../common/bounded-cache';
import { maxFileBytes, readWorkspaceText } from '../common/file-size';
import { previewOf } from './preview';
import { uriToPath } from './uri';

/** A range as lspq speaks of it: 1-based lines and code-point columns. */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A place in a file, with its line from the place on (the preview). */
export interface Place extends Span {
  path: string;
  preview: string;
}

export function symbolKindName(kind: SymbolKind): string {
  return SYMBOL_KINDS[kind - 1] ?? 'unknown';
}

/**
 * Split lines kept across requests (the pool owns one): a warm answer
 * otherwise re-reads and re-splits the same large files (a definition in a
 * 60 KB file) every time. Disk entries are checked against the file's size
 * and time; open documents against their text.
 */
export class LineCache {
  static readonly ENTRIES = 256;
  private readonly cache = new BoundedCache<string, { key: string | number; size: number; lines: string[] }>(
    LineCache.ENTRIES,
  );

  /** The lines of an open document's text, split once per version of the text. */
  ofText(path: string, text: string): string[] {
    const hit = this.cache.get(`open:${path}`);
    return hit && hit.key === text
      ? hit.lines
      : this.cache.set(`open:${path}`, { key: text, size: text.length, lines: splitLines(text) }).lines;
  }

  ofDisk(path: string): string[] | null {
    try {
      const st = statSync(path);
      const hit = this.cache.get(path);
      if (hit && hit.key === st.mtimeMs && hit.size === st.size) return hit.lines;
      // A file past the size lspq hands a server is not held here either (previews of it stay empty).
      if (st.size > maxFileBytes()) return null;
      const text = readWorkspaceText(path, 'source');
      if (text === undefined) return null;
      return this.cache.set(path, { key: st.mtimeMs, size: st.size, lines: splitLines(text) }).lines;
    } catch {
      return null;
    }
  }
}

/**
 * Lines of files, read once per request. Open documents come from what the
 * server was sent (the same as the disk after sync); others from the disk.
 */
export class TextSource {
  private readonly cache = new Map<string, string[] | null>();

  constructor(
    private readonly openText: (path: string) => string | undefined = () => undefined,
    private readonly shared = new LineCache(),
  ) {}

  lines(path: string): string[] | null {
    let lines = this.cache.get(path);
    if (lines === undefined) {
      const open = this.openText(path);
      lines = open !== undefined ? this.shared.ofText(path, open) : this.shared.ofDisk(path);
      this.cache.set(path, lines);
    }
    return lines;
  }

  line(path: string, index: number): string {
    return this.lines(path)?.[index] ?? '';
  }
}

/** A server position to a 1-based line and code-point column. */
export function fromServerPosition(
  lineText: string,
  position: Position,
  encoding: PositionEncoding,
): { line: number; column: number } {
  return { line: position.line + 1, column: fromServerCharacter(lineText, position.character, encoding) + 1 };
}

export function toSpan(path: string | undefined, range: Range, texts: TextSource, encoding: PositionEncoding): Span {
  const startText = path ? texts.line(path, range.start.line) : '';
  const endText = path ? texts.line(path, range.end.line) : '';
  // Without the text (a non-file URI) the server's units are the best there is.
  const start = path
    ? fromServerPosition(startText, range.start, encoding)
    : { line: range.start.line + 1, column: range.start.character + 1 };
  const end = path
    ? fromServerPosition(endText, range.end, encoding)
    : { line: range.end.line + 1, column: range.end.character + 1 };
  return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}

export function toLocation(uri: string, range: Range, texts: TextSource, encoding: PositionEncoding): Place {
  const path = uriToPath(uri);
  const span = toSpan(path, range, texts, encoding);
  return {
    path: path ?? uri,
    ...span,
    preview: path ? previewOf(texts.line(path, range.start.line), span.column) : '',
  };
}

/** Definition-like answers in all their forms, as (uri, range) pairs; links use their selection range. */
export function flattenLocations(
  result: LspLocation | LspLocation[] | LocationLink[] | null | undefined,
): { uri: string; range: Range }[] {
  if (!result) return [];
  const list: (LspLocation | LocationLink)[] = Array.isArray(result) ? result : [result];
  return list.map((item) =>
    'targetUri' in item
      ? { uri: item.targetUri, range: item.targetSelectionRange }
      : { uri: item.uri, range: item.range },
  );
}

function markedStringText(s: MarkedString): string {
  return typeof s === 'string' ? s : `\`\`\`${s.language}\n${s.value}\n\`\`\``;
}

/** The three hover forms (MarkupContent, MarkedString, MarkedString[]) as one text. */
export function hoverText(contents: Hover['contents'] | MarkupContent | MarkedString | MarkedString[]): string {
  if (Array.isArray(contents))
    return contents
      .map(markedStringText)
      .filter((s) => s.trim() !== '')
      .join('\n\n')
      .trim();
  if (typeof contents === 'string') return contents.trim();
  if ('kind' in contents) return contents.value.trim();
  return markedStringText(contents).trim();
}

/**
 * A document-symbol answer is a tree (DocumentSymbol, with selection
 * ranges) or a flat list (SymbolInformation, older servers); its first
 * entry says which the whole answer is.
 */
export function symbolTree(
  list: readonly (DocumentSymbol | SymbolInformation)[],
): { tree: DocumentSymbol[] } | { flat: SymbolInformation[] } {
  const isTree = (s: DocumentSymbol | SymbolInformation): s is DocumentSymbol => 'selectionRange' in s;
  const first = list[0];
  // An entry of the other form in the list (no server sends both) is left out, not taken for the first's.
  return first === undefined || isTree(first)
    ? { tree: list.filter(isTree) }
    : { flat: list.filter((s): s is SymbolInformation => !isTree(s)) };
}
