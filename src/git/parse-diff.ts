/**
 * `git diff --raw --numstat -z` (status and counts per file, NUL-separated
 * so any path survives) joined with the hunks of the patch into the
 * contract's diff shape. Pure.
 */
import { hunksByPath, type Hunk } from './parse-patch';
import { statusWord } from './parse-status';

export interface DiffFile {
  path: string;
  oldPath?: string;
  status: string;
  /** null for binary files, which have no lines to count. */
  additions: number | null;
  deletions: number | null;
  binary: boolean;
  hunks: Hunk[];
}

export const DIFF_COUNTS_ARGS = ['--raw', '--numstat', '-z', '--no-abbrev'];

interface RawEntry {
  status: string;
  path: string;
  oldPath?: string;
}

interface Counts {
  additions: number | null;
  deletions: number | null;
}

/** Raw records come first (each starts with ':'), then the numstat records, in the same order. */
function split(text: string): { raw: RawEntry[]; counts: Counts[] } {
  const tokens = text.split('\0');
  const raw: RawEntry[] = [];
  const counts: Counts[] = [];
  let i = 0;
  while (i < tokens.length && (tokens[i] as string).startsWith(':')) {
    const letter = ((tokens[i] as string).split(' ')[4] ?? 'X').charAt(0);
    if (letter === 'R' || letter === 'C') {
      raw.push({ status: letter, oldPath: tokens[i + 1] as string, path: tokens[i + 2] as string });
      i += 3;
    } else {
      raw.push({ status: letter, path: tokens[i + 1] as string });
      i += 2;
    }
  }
  for (; i < tokens.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(tokens[i] as string);
    if (!m) continue;
    const num = (s: string | undefined): number | null => (s === '-' || s === undefined ? null : Number(s));
    counts.push({ additions: num(m[1]), deletions: num(m[2]) });
    // A rename's numstat record has an empty path followed by the old and the new path.
    if ((tokens[i] as string).length === m[0].length) i += 2;
  }
  return { raw, counts };
}

export interface DiffJson {
  files: DiffFile[];
}

export function parseDiff(countsText: string, patch: string): DiffJson {
  const { raw, counts } = split(countsText);
  const hunks = hunksByPath(patch);
  const files: DiffFile[] = [];
  raw.forEach((entry, k) => {
    const { additions = null, deletions = null } = counts[k] ?? {};
    const previous = files.at(-1);
    // An unmerged path is listed twice (the conflict, then the work-tree change): one file.
    if (previous && previous.path === entry.path && previous.status === 'unmerged') {
      previous.additions = additions;
      previous.deletions = deletions;
      previous.binary = additions === null;
      return;
    }
    files.push({
      path: entry.path,
      ...(entry.oldPath !== undefined ? { oldPath: entry.oldPath } : {}),
      status: statusWord(entry.status),
      additions,
      deletions,
      binary: additions === null,
      hunks: hunks.get(entry.path) ?? [],
    });
  });
  return { files };
}
