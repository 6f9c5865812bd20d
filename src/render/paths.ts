/** Paths as lspq prints them: relative to the current directory when under it, else absolute. */
import { relative, sep } from 'node:path';

export function displayPath(path: string, cwd: string): string {
  if (!path.startsWith('/')) return path; // a URI of another scheme
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || rel.startsWith(sep)) return path;
  return rel;
}
