/** actions: a place asked; the servers' code actions there answered, or the one applied. */
import type { Answered, CallerContext } from '../../answers/caller';
import type { FileEdit, Verification, Verify } from '../../answers/edits';
import type { Span } from '../../answers/places';
import type { LineSpec, TargetSpec } from '../../common/target';

export interface ActionsQuery extends CallerContext, Verify {
  op: 'actions';
  place: TargetSpec | LineSpec;
  kinds?: string[];
  /** The N-th listed, the one with this id (`--apply ID`), or the server's preferred one. */
  apply?: number | { id: string } | 'preferred';
  write: boolean;
  allowOutside: boolean;
  /** List the actions the server offers disabled too, with why. */
  all?: boolean;
}

export interface CodeActionItem {
  index: number;
  /** Derived from what was listed (server, title, kind, edit): the same offer has the same id on every call. */
  id: string;
  title: string;
  kind: string;
  preferred: boolean;
  /** The files it would change, when the server said without running anything. */
  edits: { path: string; changes: number }[];
  /** Why the server offers it but it cannot be applied now. */
  disabled?: string;
  /** The server that offers it (the file's servers are all asked). */
  server: string;
}

export interface ActionsResult {
  path: string;
  span: Span;
  server: string;
  root: string;
  /** Every server asked, in order; `server` and `root` name the first. */
  servers: Answered[];
  actions: CodeActionItem[];
  /** How many were offered before --limit cut the list. */
  total: number;
  truncated: boolean;
  /** Actions the server offers disabled, left out of the list (all of them are listed with --all). */
  hidden: number;
  /** The action applied: the files its edits change, and the pages its command asked to show (a URL to open). */
  applied: null | {
    index: number;
    id: string;
    title: string;
    server: string;
    files: FileEdit[];
    /** Where the diff of `files` writes its paths from: the top of their checkout (patchTop). */
    patchTop: string;
    written: boolean;
    urls: string[];
    verification?: Verification;
  };
}
