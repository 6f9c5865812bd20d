/** Source files of a project, found without a server: for servers that need one open file to know the project. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { languageIdFor, type ServerSpec } from './servers/registry';

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'target', 'vendor', '.venv', 'venv', '__pycache__', '.cache']);

/** Files under `root` the server handles, breadth first, skipping dependency and build folders. */
export function projectFiles(spec: ServerSpec, root: string, max: number): string[] {
  const found: string[] = [];
  const queue = [root];
  while (queue.length > 0 && found.length < max) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.name.startsWith('.') && e.name !== '.') continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) queue.push(full);
      } else if (e.isFile() && languageIdFor(spec, full) && !e.name.endsWith('.d.ts')) {
        found.push(full);
        if (found.length >= max) break;
      }
    }
  }
  return found;
}
