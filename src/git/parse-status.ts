/**
 * `git status --porcelain=v2 --branch -z` into the contract's status shape.
 * NUL-separated records, so any byte a path may hold survives. Pure.
 */

export interface StatusEntry {
  path: string;
  status: string;
  oldPath?: string;
}

export interface StatusJson {
  branch: string | null;
  oid: string | null;
  upstream?: string;
  ahead: number;
  behind: number;
  staged: StatusEntry[];
  unstaged: StatusEntry[];
  untracked: string[];
  conflicted: string[];
  ignored: string[];
}

const WORDS: Record<string, string> = {
  M: 'modified',
  T: 'typechange',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  U: 'unmerged',
};

export const statusWord = (letter: string): string => WORDS[letter] ?? 'unknown';

/** The fields of a record before its path, and the path (which may contain spaces). */
function fields(record: string, count: number): { parts: string[]; path: string } {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const next = record.indexOf(' ', at);
    parts.push(record.slice(at, next));
    at = next + 1;
  }
  return { parts, path: record.slice(at) };
}

function header(out: StatusJson, line: string): void {
  const [key, ...rest] = line.slice(2).split(' ');
  const value = rest.join(' ');
  if (key === 'branch.oid') out.oid = value === '(initial)' ? null : value;
  else if (key === 'branch.head') out.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') out.upstream = value;
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) {
      out.ahead = Number(m[1]);
      out.behind = Number(m[2]);
    }
  }
}

function changed(out: StatusJson, xy: string, path: string, oldPath?: string): void {
  const [x = '.', y = '.'] = xy;
  const entry = (letter: string): StatusEntry => ({
    path,
    status: statusWord(letter),
    ...(oldPath !== undefined && (letter === 'R' || letter === 'C') ? { oldPath } : {}),
  });
  if (x !== '.') out.staged.push(entry(x));
  if (y !== '.') out.unstaged.push(entry(y));
}

export function parseStatus(text: string): StatusJson {
  const out: StatusJson = {
    branch: null,
    oid: null,
    ahead: 0,
    behind: 0,
    staged: [],
    unstaged: [],
    untracked: [],
    conflicted: [],
    ignored: [],
  };
  const records = text.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as string;
    switch (record[0]) {
      case '#':
        header(out, record);
        break;
      case '1': {
        const { parts, path } = fields(record, 8);
        changed(out, parts[1] ?? '..', path);
        break;
      }
      case '2': {
        // The original path is the next NUL-terminated record.
        const { parts, path } = fields(record, 9);
        changed(out, parts[1] ?? '..', path, records[++i]);
        break;
      }
      case 'u':
        out.conflicted.push(fields(record, 10).path);
        break;
      case '?':
        out.untracked.push(record.slice(2));
        break;
      case '!':
        out.ignored.push(record.slice(2));
        break;
    }
  }
  // The contract's key order: branch, upstream, ahead, behind, then the lists.
  const { branch, oid, upstream, ahead, behind, staged, unstaged, untracked, conflicted, ignored } = out;
  return {
    branch,
    oid,
    ...(upstream !== undefined ? { upstream } : {}),
    ahead,
    behind,
    staged,
    unstaged,
    untracked,
    conflicted,
    ignored,
  };
}
