/** calls: a function asked; its callers or callees answered, or the call chains from it to another. */
import type { CallerContext } from '../../answers/caller';
import type { Context, Enclosing, Span } from '../../answers/places';
import type { TargetSpec } from '../../common/target';

export type CallDirection = 'incoming' | 'outgoing';

export interface CallsQuery extends CallerContext {
  op: 'calls';
  target: TargetSpec;
  direction: CallDirection;
  depth: number;
}

export interface CallPathQuery extends CallerContext {
  op: 'callPath';
  from: TargetSpec;
  to: TargetSpec;
  depth: number;
}

export interface CallItem {
  name: string;
  kind: string;
  path: string;
  line: number;
  column: number;
  detail?: string;
  /** The symbol it is declared in (a method's class), where its file's server gives one. */
  in?: Enclosing;
}

export interface CallNode {
  item: CallItem;
  ranges: Span[];
  calls: CallNode[];
  context?: Context;
}

export interface CallsResult {
  item: CallItem;
  direction: CallDirection;
  server: string;
  root: string;
  calls: CallNode[];
  total: number;
  truncated: boolean;
  /** Go's other build configurations asked besides this one. */
  builds?: string[];
  /** Files that name the function that no build configuration asked compiles: not searched (exit 3). */
  unsearched?: string[];
}

/** One call of a chain: where the caller calls the callee. */
export interface CallHop {
  caller: CallItem;
  callee: CallItem;
  /** The call sites, in the caller's file. */
  ranges: Span[];
}

/** Where a search that found no chain ended, and why a larger --depth would not find one. */
export interface SearchEnd {
  /** The depth searched. */
  depth: number;
  /** How many functions it reached. */
  reached: number;
  /** Every call was followed to its end before the depth ran out: a larger --depth finds no more. */
  exhausted: boolean;
  /** Trait or interface methods it ended at (no calls of their own), with the implementations it does not follow. */
  dispatch: { item: CallItem; implementations: { path: string; line: number; column: number }[] }[];
  /** Functions declared inside one it went through that no call reached (passed as a value, not called). */
  passed: { item: CallItem; in: string }[];
}

export interface CallPathResult {
  from: CallItem;
  to: CallItem;
  server: string;
  root: string;
  /** The shortest chains from `from` to `to`, each its calls in order. */
  chains: CallHop[][];
  total: number;
  truncated: boolean;
  /** With no chain found: where the search ended (for the line that says so; not in the JSON answer). */
  ended?: SearchEnd;
}
