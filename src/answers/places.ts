/**
 * The places an answer names, as both halves of lspq see them: plain
 * objects, paths absolute and positions 1-based code points (the handlers
 * convert what servers say; the renderers show it). No LSP type appears here.
 */

export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** The order of every list of places lspq prints: by path (as bytes, like sort(1) in the C locale), then line, then column. */
export function byPlace(
  a: { path: string; line: number; column: number },
  b: { path: string; line: number; column: number },
): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column;
}

/** Lines around a place, as the servers see the file: the window, the place's own line included. */
export interface Context {
  line: number;
  lines: string[];
}

/** A location's whole declaration (--body): its lines, cut at --max-lines. */
export interface Body {
  line: number;
  endLine: number;
  text: string;
  truncated: boolean;
}

/** The symbol a place sits in: its name as code writes it, qualified by its class or type (`Circle.area`), and kind. */
export interface Enclosing {
  name: string;
  kind: string;
}

export interface Location extends Span {
  path: string;
  preview: string;
  context?: Context;
  /** With --body: the declaration there, or null where the server gives no symbol. */
  body?: Body | null;
  /** refs: the symbol the reference sits in, where the file's server gives one around it. */
  in?: Enclosing;
}

/** Where a question pointed, once found: a position, and the name there. */
export interface ResolvedTarget {
  path: string;
  line: number;
  column: number;
  symbol?: string;
}

/** Where an answer came from, and (from an index) the files changed since it was built. */
export interface Sourced {
  source?: 'index' | 'server';
  stale?: string[];
}

/** Sorted by path, line, column, with exact duplicates removed (servers repeat them across projects). */
export function sortLocations<T extends Span & { path: string }>(locations: T[]): T[] {
  const seen = new Set<string>();
  return locations
    .filter((l) => {
      const key = `${l.path}:${l.line}:${l.column}:${l.endLine}:${l.endColumn}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(byPlace);
}

/** A symbol of the workspace where a server's search found it (symbols -w, and a NAME found for a question). */
export interface WorkspaceSymbol {
  name: string;
  kind: string;
  container?: string;
  path: string;
  line: number;
  column: number;
  context?: Context;
}
