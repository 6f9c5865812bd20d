/** rename: a symbol and its new name asked; every file's edit answered (written, or only shown). */
import type { CallerContext } from '../../answers/caller';
import type { FileEdit, Verification, Verify } from '../../answers/edits';
import type { Location, ResolvedTarget } from '../../answers/places';
import type { TargetSpec } from '../../common/target';
import type { Leftover } from '../../engine/unrenamed';

export interface RenameQuery extends CallerContext, Verify {
  op: 'rename';
  target: TargetSpec;
  newName: string;
  write: boolean;
  allowOutside: boolean;
  /** Go: only this build's files, even where other builds' files write the name. */
  thisBuildOnly?: boolean;
}

export interface RenameResult {
  target: ResolvedTarget;
  server: string;
  root: string;
  newName: string;
  files: FileEdit[];
  /** Where the diff of `files` writes its paths from: the top of their checkout (patchTop). */
  patchTop: string;
  applied: boolean;
  /** Places in files the edit did not touch that still write the old name (outside what the server knows). */
  unrenamed: Location[];
  /** What those places are (in comments or strings, built output, another build configuration...). */
  leftovers: Leftover[];
  /** The name renamed, as it was. */
  oldName?: string;
  /** Go's other build configurations whose files were renamed too. */
  builds?: string[];
  verification?: Verification;
}
