/**
 * What an index was built from, beside it (`index.scip` → `index.json`):
 * the commit, and each indexed file's size, modification time and content
 * hash, so a question can tell at once whether a file changed since. An
 * index without one (built in CI and copied here) is trusted up to the
 * checkout's HEAD: the files git says changed are the stale ones.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { readWorkspaceFile, readWorkspaceJson } from '../common/file-size';
import { extname, join, relative } from 'node:path';
import * as z from 'zod/mini';
import { neverSources } from '../project/folders';
import { turnEvery } from '../common/turns';

const ManifestShape = z.object({
  version: z.literal(1),
  commit: z.optional(z.string()),
  built: z.string(),
  root: z.string(),
  tools: z.array(z.string()),
  files: z.record(z.string(), z.object({ hash: z.string(), size: z.number(), mtimeMs: z.number() })),
  /** The index it describes, by size and hash: a manifest beside another index (a build cut short) is none. */
  index: z.optional(z.object({ size: z.number(), hash: z.string() })),
  /** Each folder under the root by its modification time: a file added since changes its folder's. */
  dirs: z.optional(z.record(z.string(), z.number())),
});

export type Manifest = z.infer<typeof ManifestShape>;

export const manifestPath = (indexFile: string) => indexFile.replace(/(\.scip)?$/, '.json');

export function hashText(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/**
 * The manifest beside `indexFile`, or undefined when there is none, it is
 * not one, or it describes another index (then git decides).
 */
export function readManifest(indexFile: string, indexBytes?: Buffer): Manifest | undefined {
  try {
    const parsed = ManifestShape.safeParse(readWorkspaceJson(manifestPath(indexFile)));
    if (!parsed.success) return undefined;
    const described = parsed.data.index;
    if (described) {
      if (statSync(indexFile).size !== described.size) return undefined;
      if (indexBytes && hashText(indexBytes) !== described.hash) return undefined;
    }
    return parsed.data;
  } catch {
    return undefined;
  }
}

/**
 * Folders no indexer takes files from: hidden ones (.git, .venv, .lspq),
 * dependencies, build output and test data. A Python environment is
 * recognised by its pyvenv.cfg, whatever its name.
 */
export function skippedFolder(name: string, path: string): boolean {
  return name.startsWith('.') || INDEXERS_SKIP.has(name) || neverSources(path, name);
}
/** Besides what is never sources (project/folders.ts): what the indexers leave out of an index. */
const INDEXERS_SKIP = new Set(['target', 'testdata', 'vendor']);

/** Every folder under `root` lspq looks for added files in, with its modification time. */
export function foldersOf(root: string): Record<string, number> {
  const dirs: Record<string, number> = {};
  const walk = (dir: string) => {
    try {
      dirs[relative(root, dir)] = statSync(dir).mtimeMs;
      for (const e of readdirSync(dir, { withFileTypes: true }))
        if (e.isDirectory() && !skippedFolder(e.name, join(dir, e.name))) walk(join(dir, e.name));
    } catch {}
  };
  walk(root);
  return dirs;
}

/** What was on disk when a build started: the time and the folders (foldersOf), taken before any indexer ran. */
export interface BuildStart {
  built: Date;
  dirs: Record<string, number>;
}

/**
 * The manifest of the files `paths` (absolute, under `root`) as they are
 * now, for the index `index`. The time and folders are those of the
 * build's start, so a file added while it ran counts as added since.
 */
export function describeFiles(
  root: string,
  paths: string[],
  tools: string[],
  commit: string | undefined,
  index: Buffer,
  start: BuildStart,
): Manifest {
  const files: Manifest['files'] = {};
  for (const path of paths) {
    try {
      const got = readWorkspaceFile(path, 'source', { quietPastCap: true });
      if (!got.read) continue;
      files[relative(root, path)] = { hash: hashText(got.bytes), size: got.stats.size, mtimeMs: got.stats.mtimeMs };
    } catch {}
  }
  return {
    version: 1,
    ...(commit ? { commit } : {}),
    built: start.built.toISOString(),
    root,
    tools,
    files,
    index: { size: index.length, hash: hashText(index) },
    dirs: start.dirs,
  };
}

/** Whether the file at `path` is as the manifest saw it (a changed size or time is checked by its hash). */
export function unchanged(manifest: Manifest, root: string, path: string): boolean {
  const known = manifest.files[relative(root, path)];
  if (!known) return false;
  try {
    const st = statSync(path);
    if (st.size !== known.size) return false;
    if (st.mtimeMs === known.mtimeMs) return true;
    const got = readWorkspaceFile(path, 'source', { quietPastCap: true });
    return got.read && hashText(got.bytes) === known.hash;
  } catch {
    return false;
  }
}

/** Files looked at between turns of the event loop: a few milliseconds of the daemon's thread. */
const FILES_PER_TURN = 256;
/** Folders looked at between turns. */
const FOLDERS_PER_TURN = 64;

/** The indexed files that changed or went away since the manifest (the Go standard library's: 4,017 looked at). */
export async function changedSince(manifest: Manifest, root: string): Promise<string[]> {
  const turn = turnEvery(FILES_PER_TURN);
  const changed: string[] = [];
  for (const rel of Object.keys(manifest.files)) {
    const path = join(root, rel);
    if (!unchanged(manifest, root, path)) changed.push(path);
    await turn();
  }
  return changed;
}

/**
 * The files of the index's languages (their extensions) added under the
 * root since the manifest: only the folders whose time changed are read,
 * and a new folder whole. A file there already when the index was built
 * (one the indexer left out) is none: it was created before the build.
 */
export async function addedSince(manifest: Manifest, root: string): Promise<string[]> {
  if (!manifest.dirs) return [];
  const turn = turnEvery(FOLDERS_PER_TURN);
  const known = manifest.dirs;
  const extensions = new Set(Object.keys(manifest.files).map((f) => extname(f)));
  const built = Date.parse(manifest.built);
  const added: string[] = [];
  const read = (dir: string, wholly: boolean) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      const rel = relative(root, path);
      if (e.isDirectory()) {
        if (!(rel in known) && !skippedFolder(e.name, path)) read(path, true);
      } else if (extensions.has(extname(e.name)) && !(rel in manifest.files)) {
        if (wholly || createdAfter(path, built)) added.push(path);
      }
    }
  };
  for (const [rel, mtimeMs] of Object.entries(known)) {
    const dir = join(root, rel);
    try {
      if (statSync(dir).mtimeMs !== mtimeMs) read(dir, false);
    } catch {}
    await turn();
  }
  return added.sort();
}

function createdAfter(path: string, time: number): boolean {
  try {
    const st = statSync(path);
    // The change time moves with every write, rename and copy in; the build's time is to the millisecond.
    return st.ctimeMs >= time;
  } catch {
    return false;
  }
}
