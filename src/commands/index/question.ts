/** index: a project asked; where its SCIP index was written answered. */
import type { CallerContext } from '../../answers/caller';

export interface IndexQuery extends CallerContext {
  op: 'index';
  /** The project (default: the checkout's top). */
  root?: string;
  out?: string;
  /** Take the index built in CI from this URL (`{commit}` in it) instead of building one. */
  fetch?: string;
}

export interface IndexResult {
  file: string;
  root: string;
  documents: number;
  bytes: number;
  indexers: { name: string; ms: number }[];
  commit?: string;
  /** Where a fetched index came from. */
  url?: string;
  /** Its table (index-tables.ts), made with it for the questions that read it, and how long that took. */
  table?: { file: string; ms: number };
}
