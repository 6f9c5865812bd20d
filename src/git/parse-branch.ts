/**
 * `git branch --format` with NUL between fields into the contract's branch
 * shape. Ref names cannot hold control characters, so one line is one
 * branch. Pure.
 */

export interface Branch {
  name: string;
  current: boolean;
  remote: boolean;
  upstream?: string;
}

export const BRANCH_FORMAT = '--format=%(HEAD)%00%(refname)%00%(refname:short)%00%(upstream:short)';

export function parseBranches(text: string): { current: string | null; branches: Branch[] } {
  let current: string | null = null;
  const branches: Branch[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [head = '', refname = '', name = '', upstream = ''] = line.split('\0');
    // A detached HEAD is listed as "(HEAD detached at ...)": no branch is current.
    if (!refname.startsWith('refs/')) continue;
    const isCurrent = head === '*';
    if (isCurrent) current = name;
    branches.push({
      name,
      current: isCurrent,
      remote: refname.startsWith('refs/remotes/'),
      ...(upstream ? { upstream } : {}),
    });
  }
  return { current, branches };
}
