/**
 * The folders git ignores in a checkout (build output, as the project's
 * .gitignore says), for walks that look for sources. One git call per
 * checkout, off the answering thread, remembered for a few seconds (a new
 * ignore rule is seen within them); git's own exit, not a guess, decides:
 * where git cannot say, the caller falls back to the usual names.
 */
import { gitProbeEnv, spawnGit } from '../git/run';
import { BoundedCache } from '../common/bounded-cache';
import { checkoutTop } from './checkout';

/** How long a checkout's ignored folders are remembered. */
const IGNORED_CACHE_MS = 3_000;
const remembered = new BoundedCache<string, Promise<ReadonlySet<string> | undefined>>(64, IGNORED_CACHE_MS);

/** `git ls-files --directory` output (NUL-separated) as the absolute folders it names (those ending in a slash). Pure. */
export function foldersOf(top: string, listing: string): Set<string> {
  const out = new Set<string>();
  for (const entry of listing.split('\0')) if (entry.endsWith('/')) out.add(`${top}/${entry.slice(0, -1)}`);
  return out;
}

/** The folders git ignores in the checkout holding `root`; undefined outside a checkout or when git cannot say. */
export function ignoredFolders(root: string): Promise<ReadonlySet<string> | undefined> {
  const top = checkoutTop(root);
  if (top === undefined) return Promise.resolve(undefined);
  const known = remembered.get(top);
  if (known) return known;
  const asked = spawnGit(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], {
    cwd: top,
    env: gitProbeEnv(process.env),
    stderr: 'pipe',
  })
    .then((r) => (r.exit === 0 ? foldersOf(top, r.stdout) : undefined))
    .catch(() => undefined);
  return remembered.set(top, asked);
}
