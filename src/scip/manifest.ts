/**
 * What an index was built from, beside it (`index.scip` → `index.json`):
 * the commit, and each indexed file's size, modification time and content
 * hash, so a question can tell at once whether a file changed since. An
 * index without one (built in CI and copied here) is trusted up to the
 * checkout's HEAD: the files git says changed are the stale ones.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as z from 'zod/mini';

const ManifestShape = z.object({
  version: z.literal(1),
  commit: z.optional(z.string()),
  built: z.string(),
  root: z.string(),
  tools: z.array(z.string()),
  files: z.record(z.string(), z.object({ hash: z.string(), size: z.number(), mtimeMs: z.number() })),
  /** The index it describes, by size and hash: a manifest beside another index (a build cut short) is none. */
  index: z.optional(z.object({ size: z.number(), hash: z.string() })),
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
    const parsed = ManifestShape.safeParse(JSON.parse(readFileSync(manifestPath(indexFile), 'utf8')));
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

/** The manifest of the files `paths` (absolute, under `root`) as they are now, for the index `index`. */
export function describeFiles(
  root: string,
  paths: string[],
  tools: string[],
  commit: string | undefined,
  index: Buffer,
): Manifest {
  const files: Manifest['files'] = {};
  for (const path of paths) {
    try {
      const st = statSync(path);
      files[relative(root, path)] = { hash: hashText(readFileSync(path)), size: st.size, mtimeMs: st.mtimeMs };
    } catch {}
  }
  return {
    version: 1,
    ...(commit ? { commit } : {}),
    built: new Date().toISOString(),
    root,
    tools,
    files,
    index: { size: index.length, hash: hashText(index) },
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
    return hashText(readFileSync(path)) === known.hash;
  } catch {
    return false;
  }
}

/** The indexed files that changed or went away since the manifest. */
export function changedSince(manifest: Manifest, root: string): string[] {
  return Object.keys(manifest.files)
    .map((rel) => join(root, rel))
    .filter((path) => !unchanged(manifest, root, path));
}
