/** symbols: a file's symbols as a tree, or the workspace's that match a query. */
import type { CallerContext } from '../../answers/caller';
import type { Span, Sourced, WorkspaceSymbol } from '../../answers/places';

export interface SymbolsQuery extends CallerContext {
  op: 'symbols';
  path: string;
  kinds?: string[];
}

export interface WorkspaceSymbolsQuery extends CallerContext {
  op: 'wsymbols';
  query: string;
  kinds?: string[];
  /** The matches in dependencies and the standard library too, after the project's. */
  deps?: boolean;
}

export interface DocumentSymbol extends Span {
  name: string;
  kind: string;
  detail?: string;
  children: DocumentSymbol[];
}

export interface SymbolsResult {
  path: string;
  server: string;
  root: string;
  symbols: DocumentSymbol[];
  total: number;
  truncated: boolean;
}

export interface WorkspaceSymbolsResult extends Sourced {
  query: string;
  server: string;
  root: string;
  symbols: WorkspaceSymbol[];
  total: number;
  truncated: boolean;
  /** Matches in dependencies and the standard library left out (--deps lists them). */
  inDependencies: number;
  /** Servers that stopped at their own cap: more symbols may match than any of them said. */
  serverCaps?: { server: string; cap: number }[];
}
