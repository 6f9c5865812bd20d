/** Paths as lspq prints them: relative to the current directory when under it, else absolute. */
import { relativePath } from '../protocol/paths';

export function displayPath(path: string, cwd: string): string {
  if (!path.startsWith('/')) return path; // a URI of another scheme
  const rel = relativePath(cwd, path);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith('../')) return path;
  return rel;
}
