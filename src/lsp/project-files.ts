/** Source files of a project, found without a server: for servers that need one open file to know the project. */
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { notSources } from '../project/folders';
import { ignoredFolders } from '../project/ignored';
import { turnEvery } from '../common/turns';
import { languageIdFor, type ServerSpec } from './servers/registry';

/**
 * Whether a file is one of the project's sources for `spec`, not what a
 * build made of them: a declaration file (`notSources`: .d.ts, .d.cts,
 * .d.mts), and JavaScript beside the declaration file a build wrote with
 * it (`index.js` and `index.cjs` beside `index.d.ts`, as npm packages and
 * zod's published tree ship them). `exists` is asked of the sibling.
 */
export function isSource(spec: ServerSpec, path: string, exists: (p: string) => boolean): boolean {
  if (languageIdFor(spec, path) === undefined) return false;
  if ((spec.notSources ?? []).some((end) => path.endsWith(end))) return false;
  const built = /\.(c|m)?js$/.exec(path);
  if (!built || !spec.notSources?.length) return true;
  const stem = path.slice(0, -built[0].length);
  return !['.d.ts', '.d.cts', '.d.mts'].some((d) => exists(`${stem}${d}`));
}

/** Files under `root` the server handles, breadth first, skipping what is not sources (project/folders.ts). */
export async function projectFiles(
  spec: ServerSpec,
  root: string,
  max: number,
  extensions?: string[],
): Promise<string[]> {
  const found: string[] = [];
  const notSources = spec.notSources ?? [];
  // The server's own languages, or other files of its project (the .svelte files a plugin would reach).
  const wanted = (full: string) => (extensions ? extensions.some((e) => full.endsWith(e)) : languageIdFor(spec, full));
  await walk(
    root,
    (full, name) => {
      if (!wanted(full) || notSources.some((end) => name.endsWith(end))) return true;
      found.push(full);
      return found.length < max;
    },
    spec.outputDirs,
  );
  return found;
}

/** How many entries a search for the languages of a folder looks at before it settles for what it saw. */
const LANGUAGE_SCAN_ENTRIES = 20_000;

/**
 * The servers, of `specs`, with at least one file under `root`: a
 * workspace question asks only those (a folder of Python files starts no
 * TypeScript or Go server). Stops as soon as every server has a file.
 */
export async function serversWithFiles(specs: ServerSpec[], root: string): Promise<ServerSpec[]> {
  const seen = new Set<ServerSpec>();
  let budget = LANGUAGE_SCAN_ENTRIES;
  await walk(root, (full) => {
    for (const spec of specs) if (!seen.has(spec) && languageIdFor(spec, full)) seen.add(spec);
    return seen.size < specs.length && --budget > 0;
  });
  return specs.filter((s) => seen.has(s));
}

/** Folders read between turns of the event loop: a walk of 20,000 files never holds the daemon's thread for long. */
const FOLDERS_PER_TURN = 64;

/** Breadth first over the files under `root`, in name order, skipping what is not sources (folders.ts), until `visit` returns false. */
async function walk(
  root: string,
  visit: (full: string, name: string) => boolean,
  outputDirs: readonly string[] = [],
): Promise<void> {
  const queue = [root];
  const turn = turnEvery(FOLDERS_PER_TURN);
  // Build output is what git ignores: a dist/ git tracks (a package that keeps its sources there) is walked.
  const ignored = await ignoredFolders(root);
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    await turn();
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!notSources(full, ignored, e.name) && !(dir === root && outputDirs.includes(e.name))) queue.push(full);
      } else if (e.isFile() && !visit(full, e.name)) {
        return;
      }
    }
  }
}
