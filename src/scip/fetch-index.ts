/**
 * An index built in CI, fetched here: the URL (`{commit}` in it replaced)
 * is tried for the checkout's HEAD, then for where HEAD left the default
 * branch. What arrives is checked as a SCIP index and kept whole in a
 * cache keyed by commit (`~/.cache/lspq/indexes/COMMIT.scip`, with the
 * manifest beside it when CI published one), then the checkout's
 * `.lspq/fetched.json` names it, so questions find it as they find a local
 * index. Files changed since that commit are for the live servers.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readWorkspaceJson } from '../common/file-size';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { LspqError, messageOf } from '../common/errors';
import { manifestPath } from './manifest';
import { ScipIndex } from './scip-index';
import { cacheFolder } from '../common/user-folders';
import { recordOwn } from '../trust/own-files';
import { writeOwnFile } from '../common/workspace-guard';

/** Where fetched indexes are kept, by commit. */
export function indexCache(env: Record<string, string>): string {
  return join(cacheFolder(env), 'indexes');
}

/** The URL for one commit: `{commit}` replaced (a URL without it names one index for every commit). */
export const urlFor = (template: string, commit: string) => template.replaceAll('{commit}', commit);

/** What `.lspq/fetched.json` says: the index a checkout was given, and the commit it describes. */
const FetchedShape = z.object({ url: z.string(), commit: z.string(), file: z.string() });
export type Fetched = z.infer<typeof FetchedShape>;

export const fetchedPath = (top: string) => join(top, '.lspq', 'fetched.json');

/** The checkout's fetched index, or undefined (none, not one, or its file gone from the cache). */
export function readFetched(top: string): Fetched | undefined {
  try {
    const parsed = FetchedShape.safeParse(readWorkspaceJson(fetchedPath(top)));
    return parsed.success && existsSync(parsed.data.file) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** How long one download may take before it is given up. */
const FETCH_TIMEOUT_MS = 120_000;

async function download(url: string, signal: AbortSignal | undefined): Promise<Buffer | undefined> {
  let response: Response;
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  try {
    response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    throw new LspqError('server_failed', `cannot fetch ${url}: ${messageOf(err)}`);
  }
  if (response.status === 404 || response.status === 410) return undefined;
  if (!response.ok) throw new LspqError('server_failed', `cannot fetch ${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** Writes `bytes` to `file` whole: a temporary file beside it, renamed over. */
function writeWhole(file: string, bytes: Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.part`;
  try {
    writeFileSync(part, bytes);
    renameSync(part, file);
  } finally {
    rmSync(part, { force: true });
  }
}

/**
 * The index for the first of `commits` the URL has (the cache first),
 * recorded as the checkout's; undefined when the URL has none of them.
 */
export async function fetchIndex(
  template: string,
  commits: string[],
  top: string,
  env: Record<string, string>,
  signal?: AbortSignal,
): Promise<Fetched | undefined> {
  const cache = indexCache(env);
  for (const commit of commits) {
    const file = join(cache, `${commit}.scip`);
    const url = urlFor(template, commit);
    if (!existsSync(file)) {
      const bytes = await download(url, signal);
      if (!bytes) continue;
      // Checked before it is kept: a page of HTML or half a file is no index.
      const probe = join(cache, `${commit}.${process.pid}.probe.scip`);
      writeWhole(probe, bytes);
      try {
        ScipIndex.load(probe, top);
      } catch (err) {
        throw new LspqError('usage', `${url} is not a SCIP index (${messageOf(err).replace(/^.*?\(/, '(')})`);
      } finally {
        rmSync(probe, { force: true });
      }
      const manifest = await download(url.replace(/(\.scip)?$/, '.json'), signal).catch(() => undefined);
      if (manifest) writeWhole(manifestPath(file), manifest);
      writeWhole(file, bytes);
    }
    const fetched = { url, commit, file };
    writeOwnFile(fetchedPath(top), `${JSON.stringify(fetched)}\n`, top);
    recordOwn(fetchedPath(top), env);
    writeOwnFile(join(top, '.lspq', '.gitignore'), '*\n', top);
    return fetched;
  }
  return undefined;
}
