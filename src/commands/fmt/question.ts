/** fmt: files asked (or lines of one); each file's text before and after its formatter formats it answered. */
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
  /** The name of the formatter that decided it (one of the result's `formatters`). */
  formatter: string;
}

/**
 * What decided how files are formatted: the formatter the project's
 * configuration names, or a server's own (with what it runs, gofmt for
 * gopls), and where the project names one that could not run here, which.
 */
export interface FmtFormatter {
  name: string;
  by: 'project' | 'server';
  /** The project's configuration that names it. */
  config?: string;
  /** The project's formatter's program, as found. */
  binary?: string;
  /** The formatter a server runs (gopls: gofmt; rust-analyzer: rustfmt). */
  runs?: string;
  /** The formatter the project names, left out here (not trusted, no box): the server's formatted instead. */
  passedOver?: { name: string; config: string };
}

export interface FmtResult {
  answered: Answered[];
  files: FmtFile[];
  formatters: FmtFormatter[];
  /** --server chose the formatter, so the project's was not looked for. */
  chosen: boolean;
  /** Where the diff of `files` writes its paths from: the top of their checkout (patchTop). */
  patchTop: string;
  written: boolean;
}
