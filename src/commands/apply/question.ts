/** apply: a patch (or a chain of them) to check in memory and write whole only if it introduces nothing at --fail-on. */
import type { CallerContext } from '../../answers/caller';
import type { PatchStep, Severity } from '../../answers/diagnostics';
import type { DiagResult } from '../diag/question';

export interface ApplyQuery extends CallerContext {
  op: 'apply';
  /** The patches, in order, each read against the tree the ones before it make. */
  steps: PatchStep[];
  /** The severity a problem must have to keep the patch unwritten; undefined: none does (--fail-on never). */
  failOn?: Severity;
  /** Show only this severity and worse. */
  severity?: Severity;
  /** False with --dry-run: checked only. */
  write: boolean;
  allowOutside: boolean;
}

/** What diag --patch answers of the same patches, and whether they were written. */
export interface ApplyResult extends DiagResult {
  written: boolean;
  /** The files written (or that would be): each changed, created, deleted or renamed file once. */
  changed: string[];
  /** The patches by the names they were given, in order. */
  names: string[];
}
