/** Diagnostics as lspq reports them, and what --verify found. */
import type { CallerContext } from './caller';
import type { Context, Span } from './places';

/** Worst first: a threshold takes its own severity and those before it. */
export const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Diagnostic extends Span {
  path: string;
  severity: Severity;
  message: string;
  source?: string;
  code?: string | number;
  context?: Context;
  /** With --since: not present at that revision. */
  new?: boolean;
}

/** diag's question, which rename --verify asks too. */
export interface DiagQuery extends CallerContext {
  op: 'diag';
  files: string[];
  all: boolean;
  severity?: Severity;
  staged?: boolean;
  changed?: boolean;
  /** Only what is new since this revision: the same servers asked about its content too. */
  since?: string;
  /** Only diagnostics on lines added or changed since `since` (else HEAD). */
  changedLines?: boolean;
  /**
   * What a unified diff would introduce, applied in memory; several, a
   * chain: each applied on top of those before it, checked in turn.
   */
  patch?: PatchStep[];
  /** With a chain: the severity at which a step fails, so the steps after it are not checked. */
  failOn?: Severity;
}

/** A unified diff read against the tree before it: the files it touches, and those it changes that are no text. */
export interface ReadPatch {
  files: ChangedFile[];
  binary: string[];
}

/** One patch of a chain, by the name it was given (its file, or `-` for stdin). */
export interface PatchStep extends ReadPatch {
  name: string;
}

/** A file a change touches: its text before and after (null: absent then), and where it was before a rename. */
export interface ChangedFile {
  path: string;
  before: string | null;
  after: string | null;
  renamedFrom?: string;
}

/** A checker left out of a diagnosis: what is missing from the answer, and what would bring it in. */
export interface Withheld {
  server: string;
  missing: string;
  fix: string;
}

/**
 * A file no installed server checks, though lspq knows one for its language:
 * named, never reported clean. `needed`: the answer is not whole without it
 * (a program's source, or a file named on the command line); else a note
 * (a Markdown file without marksman).
 */
export interface Unchecked {
  path: string;
  /** Why, without the path: the server missing and how to install it (sessions.ts's notInstalled). */
  reason: string;
  needed: boolean;
}
