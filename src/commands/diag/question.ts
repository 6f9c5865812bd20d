/** diag: files asked (named, staged, changed or all); their diagnostics answered, never a file reported clean that was not checked. */
import type { Answered } from '../../answers/caller';
import type { Diagnostic, Severity, Unchecked, Withheld } from '../../answers/diagnostics';

/** One patch of a chain: what it introduced on top of the ones before it; not checked after one that fails. */
export interface StepResult {
  patch: string;
  checked: boolean;
  introduced: Record<Severity, number>;
  diagnostics: Diagnostic[];
}

export type { DiagQuery } from '../../answers/diagnostics';

export interface DiagResult {
  diagnostics: Diagnostic[];
  /** Every diagnostic found, by severity, those --severity does not list included (--fail-on judges them all). */
  summary: Record<Severity, number>;
  /** The least severity listed: --severity's, else warning (infos and hints only when asked). */
  shown: Severity;
  files: string[];
  total: number;
  truncated: boolean;
  /** Files whose diagnostics could not be completed in time; never reported clean. */
  incomplete: string[];
  /** Files lspq could not hand a server (binary, too large), left out with why; never reported clean either. */
  skipped: { path: string; reason: string }[];
  /** Each server asked and the root it ran for, in the order asked. */
  answered: Answered[];
  /** Checkers left out, so the answer is not whole: what is missing and what would bring it in. */
  withheld: Withheld[];
  /** Files no installed server could check, each said; a needed one makes the answer not whole. */
  unchecked: Unchecked[];
  /**
   * With --all where TypeScript read the tsconfigs: the sources git lists that they leave out (not checked, as by
   * tsc), each with its tsconfig, and those under no tsconfig (checked with the server's defaults, unlike tsc -p).
   */
  tsconfig?: { leftOut: { path: string; config: string }[]; loose: string[] };
  /** With --since: the revision compared with, and the diagnostics already present there (not shown, not judged). */
  since?: { rev: string; present: Record<Severity, number> };
  /**
   * With --patch: the files it touches, what it introduces, and the problems
   * already there that are not listed (with --all the patched files' are).
   */
  patch?: { files: string[]; introduced: Record<Severity, number>; present: Record<Severity, number> };
  /** With a chain of patches: each step, in order. */
  steps?: StepResult[];
}
