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
  applied: boolean;
  /** The servers asked for the edits, and their roots. */
  servers: Answered[];
  verification?: Verification;
}
