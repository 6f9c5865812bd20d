/** What an edit changes, and what --verify found after writing it. */
import type { Diagnostic } from './diagnostics';

/** One file's part of an edit: the text before and after (null: created or deleted), for diffs; `changes` counts its text edits. */
export interface FileEdit {
  path: string;
  changes: number;
  before: string | null;
  after: string | null;
  renamedTo?: string;
}

/** --verify: after writing, put everything back if the edit introduced an error (verifyAll: anywhere in the workspace). */
export interface Verify {
  verify?: boolean;
  verifyAll?: boolean;
}

/** What --verify found: the errors the edit introduced, and whether it was put back for them. */
export interface Verification {
  introduced: Diagnostic[];
  reverted: boolean;
  /** false for --dry-run --verify: checked in memory, nothing written (or put back). */
  written?: boolean;
  /**
   * Files whose diagnostics cannot be compared: they did not all come in
   * time, or a check that reads the disk (cargo check) has errors in them
   * after the edit. Where no error was found new, the edit is kept but not
   * verified.
   */
  incomplete?: string[];
}
