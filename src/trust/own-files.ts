/**
 * What the user made with lspq itself (an index `lspq index` built, the
 * record of one `--fetch` took), by real path and content hash, in the
 * user's configuration folder: read without trust, wherever it lies, as
 * long as it is the very file lspq wrote. A file a repository ships at the
 * same name is not in this record, so it waits for `lspq trust`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readWorkspaceFile } from '../common/file-size';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { realOf } from '../common/real-path';
import { configFolder } from '../common/user-folders';

const OwnShape = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ hash: z.string(), stamp: z.string() })),
});
type Own = z.infer<typeof OwnShape>;
type Env = Record<string, string | undefined>;

const MAX_FILES = 1_000;

export const ownFile = (env: Env) => join(configFolder(env), 'own-files.json');

/** A file's identity on this machine: size, change time, inode (a copy or a replacement has another). */
function stampOf(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/** An index's hash; one that is no regular file now (a FIFO in its place) hashes to nothing it was. */
const hashFile = (path: string) => {
  const read = readWorkspaceFile(path, 'source', { quiet: true, quietPastCap: true });
  return read.read ? createHash('sha256').update(read.bytes).digest('hex') : 'not a regular file';
};

function readOwn(env: Env): Own {
  try {
    const parsed = OwnShape.safeParse(JSON.parse(readFileSync(ownFile(env), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {}
  return { version: 1, files: {} };
}

/** Records `path` as the user's own, as it is now (called right after lspq wrote it). */
export function recordOwn(path: string, env: Env): void {
  const stamp = stampOf(path);
  if (stamp === undefined) return;
  const own = readOwn(env);
  const real = realOf(path);
  delete own.files[real];
  own.files[real] = { hash: hashFile(path), stamp };
  // The oldest first: past the limit, they are forgotten (rebuilding one records it again).
  const kept = Object.entries(own.files).slice(-MAX_FILES);
  const file = ownFile(env);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, files: Object.fromEntries(kept) })}\n`, {
    mode: 0o600,
  });
  renameSync(temporary, file);
}

/** Whether `path` is a file lspq wrote for the user and nobody changed since: the same stamp, else the same content. */
export function isOwn(path: string, env: Env): boolean {
  const known = readOwn(env).files[realOf(path)];
  if (!known) return false;
  const stamp = stampOf(path);
  if (stamp === undefined) return false;
  if (stamp === known.stamp) return true;
  try {
    return hashFile(path) === known.hash;
  } catch {
    return false;
  }
}
