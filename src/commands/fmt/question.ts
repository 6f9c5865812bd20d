/** fmt: files asked (or lines of one); each file's text before and after its server formats it answered. */
import type { Answered, CallerContext } from '../../answers/caller';

export interface FmtQuery extends CallerContext {
  op: 'fmt';
  files: string[];
  lines?: { start: number; end: number };
  write: boolean;
  /** Let --write change a file whose name lies in one workspace and whose content, through a link, in another place. */
  allowOutside: boolean;
}

export interface FmtFile {
  path: string;
  changed: boolean;
  edits: number;
  before: string;
  after: string;
}

export interface FmtResult {
  answered: Answered[];
  files: FmtFile[];
  /** Where the diff of `files` writes its paths from: the top of their checkout (patchTop). */
  patchTop: string;
  written: boolean;
}
