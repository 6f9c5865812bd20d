/** hook run: an agent's edit event, and the problems an edit introduced. */
import type { Answered, CallerContext } from '../../answers/caller';
import type { Diagnostic, Severity, Unchecked, Withheld } from '../../answers/diagnostics';
import type { Agent } from './configs';
import type { HookEvent } from './input';

export interface HookQuery extends CallerContext {
  op: 'hook';
  agent: Agent;
  event: HookEvent;
  /** The least severity told the agent. */
  severity: Severity;
}

/** What an edited file was compared with: itself before the edit, the edit undone, git's index, or nothing (new). */
export type Baseline = 'before the edit' | 'the edit undone' | "git's index" | 'nothing (a new file)';

export interface HookResult {
  kind: HookEvent['kind'];
  /** Each file checked and what it was compared with. */
  compared: { path: string; with: Baseline }[];
  /** What the edits introduced, at the severity asked or worse, by place. */
  diagnostics: Diagnostic[];
  /** The least severity told (what `lspq diag --severity` must ask to list the same). */
  severity: Severity;
  /**
   * Whether `lspq diag` of the files these diagnostics lie in lists exactly
   * them: none of those files held a problem at the severity before the
   * edit, and no check was left out that diag would run.
   */
  listedByFiles: boolean;
  /** Files whose diagnostics did not come in time; servers that left checks out: the answer is not whole. */
  incomplete: string[];
  withheld: Withheld[];
  /** Edited files no installed server could check (a README.md without marksman: a note). */
  unchecked: Unchecked[];
  answered: Answered[];
}
