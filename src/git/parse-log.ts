/**
 * `git log` with a NUL-delimited format into the contract's commits. A
 * commit message cannot hold a NUL, so no subject or body can break the
 * fields apart. Pure.
 */

export interface Commit {
  hash: string;
  author: string;
  email: string;
  date: string;
  subject: string;
  body: string;
}

const FIELDS = ['%H', '%an', '%ae', '%aI', '%s', '%b'];

/** Every field ends in NUL; git puts a newline (or, with -z, a NUL) between commits. */
export const LOG_FORMAT = `--format=format:${FIELDS.map((f) => `${f}%x00`).join('')}`;

export function parseLog(text: string): { commits: Commit[] } {
  const tokens = text.split('\0');
  const commits: Commit[] = [];
  let i = 0;
  while (i < tokens.length) {
    const hash = (tokens[i++] as string).replace(/^\n/, '');
    // Separators between commits leave empty words where a hash would start.
    if (hash === '') continue;
    const [author = '', email = '', date = '', subject = '', body = ''] = tokens.slice(i, i + FIELDS.length - 1);
    i += FIELDS.length - 1;
    commits.push({ hash, author, email, date, subject, body: body.replace(/\n+$/, '') });
  }
  return { commits };
}
