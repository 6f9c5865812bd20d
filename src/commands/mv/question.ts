/** mv: a file or folder and where it goes asked; the move and the edits to what imports it answered. */
import type { Answered, CallerContext } from '../../answers/caller';
import type { FileEdit, Verification, Verify } from '../../answers/edits';

export interface MvQuery extends CallerContext, Verify {
  op: 'mv';
  from: string;
  to: string;
  /** With the servers' edits to what imports it. */
  update: boolean;
  write: boolean;
  allowOutside: boolean;
}

export interface MvResult {
  moves: { from: string; to: string }[];
  /** The edits to what imports the moved files (and to the moved files' own imports), at the paths after the move. */
  files: FileEdit[];
  /** A dry run's: each file the move carries, where it was and where it goes (its patch renames each). */
  carried?: { from: string; to: string }[];
  /** Where the diff writes its paths from: the top of the checkout (patchTop). */
  patchTop: string;
  applied: boolean;
  /** The servers asked for the edits, and their roots. */
  servers: Answered[];
  verification?: Verification;
}
