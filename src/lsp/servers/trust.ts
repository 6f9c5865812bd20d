/**
 * A repository runs no code of its own until its user trusts it (as VS
 * Code's Workspace Trust, Neovim's `vim.secure`, direnv's `allow`). What a
 * repository provides: the servers of its `.lsp.json` (and every setting
 * there), and servers found inside it (`node_modules/.bin`, its `.venv`, a
 * worktree's main checkout's). A clone delivers only what git tracks, so
 * in a git checkout only what git tracks needs trust; what it does not
 * (made by the user's `npm install`, `uv venv`, their own editing) is the
 * user's and runs. A checkout is one git vouches for (project/checkout.ts):
 * in a folder whose `.git` git does not confirm, and outside a checkout,
 * everything of the project needs trust. Servers that would run the
 * repository's code as they work (build scripts, JavaScript
 * configuration) run in their untrusted mode until it is trusted
 * (untrusted.ts).
 * The user's own `~/.config/lspq/lsp.json`, tool folders and PATH always run.
 *
 * `lspq trust DIR` records the repository in the user's configuration
 * (`trust.json`): its real path and a hash of each of its `.lsp.json`, so a
 * changed one needs trusting again. LSPQ_TRUST=all trusts everything (CI
 * and containers, where the repository is the user's own).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isWithin } from '../../common/paths';
import { checkoutOf, gitTracks } from '../../project/checkout';
import { hashOf, readTrust, realOf, repositoryOf, type TrustEntry, trustFile } from '../../trust/store';

/** What git said of a path, with the index it said it from (its modification time): asked again when the index changes. */
const trackedCache = new Map<string, { index: number; tracked: boolean }>();
const TRACKED_CACHE_MAX = 1_000;

/** The time of git's index for the checkout at `top`: in `.git/`, or where a worktree's `.git` file points. */
const indexTime = (top: string) => {
  try {
    const dotGit = join(top, '.git');
    const dir = statSync(dotGit).isDirectory()
      ? dotGit
      : resolve(top, /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim() ?? '');
    return statSync(join(dir, 'index')).mtimeMs;
  } catch {
    return Number.NaN; // no index to be read: asked every time
  }
};

/** Whether git tracks `path` in the work tree at `top` (asked with nothing the repository configures running). */
function tracked(top: string, path: string, env: Record<string, string>): boolean {
  const key = `${top}\0${path}`;
  const index = indexTime(top);
  const known = trackedCache.get(key);
  if (known && known.index === index) return known.tracked;
  const answer = gitTracks(top, relative(top, path), env);
  if (trackedCache.size >= TRACKED_CACHE_MAX) trackedCache.delete(trackedCache.keys().next().value!);
  trackedCache.set(key, { index, tracked: answer });
  return answer;
}

/** Something of a repository's that was not run, for the one line that says so. */
export interface LeftOut {
  what: string;
  /** The folder `lspq trust` would take. */
  repository: string;
}

/**
 * One question's view of trust: which paths of the project may run, and
 * what was left out. `root` is the project the question is about: outside
 * a git checkout, what lies under it is the project's.
 */
export class Trust {
  readonly leftOut: LeftOut[] = [];
  /** The servers this question could not start at all: their untrusted mode is not to run. */
  readonly refused = new Set<string>();
  private readonly all: boolean;
  private readonly entries: TrustEntry[];

  constructor(
    private readonly env: Record<string, string>,
    entries?: TrustEntry[],
  ) {
    this.all = env.LSPQ_TRUST === 'all';
    this.entries = this.all ? [] : (entries ?? readTrust(env));
  }

  /** Everything may run: for lspq's own benchmarks and tools, which choose their servers themselves. */
  static everything(): Trust {
    return new Trust({ LSPQ_TRUST: 'all' });
  }

  /** What decides this view, for a cache of what it allowed: LSPQ_TRUST and the trust file's state. */
  static stamp(env: Record<string, string | undefined>): string {
    if (env.LSPQ_TRUST === 'all') return 'all';
    try {
      return String(statSync(trustFile(env)).mtimeMs);
    } catch {
      return 'none';
    }
  }

  /**
   * The repository `path` belongs to when it is the repository's own code
   * (tracked by git, or anything of a project outside git), else undefined.
   */
  private owner(path: string, project: string): string | undefined {
    const checkout = checkoutOf(path, this.env);
    // A checkout git does not vouch for (an empty .git, a failing git): nothing in it is the user's own.
    if (checkout && !checkout.vouched) return checkout.top;
    if (checkout) return tracked(checkout.top, path, this.env) ? checkout.top : undefined;
    const under = isWithin(path, project);
    return under ? project : undefined;
  }

  /**
   * Whether the repository a server's root lies in is trusted: servers that
   * would run its code (build scripts, configuration that is JavaScript, a
   * workspace's TypeScript) run in their untrusted mode until it is.
   */
  trustsRoot(root: string): boolean {
    return this.all || this.trusts(repositoryOf(root, this.env));
  }

  /** Says what a question left out of a repository that is not trusted. */
  leaveOut(what: string, root: string): void {
    this.leftOut.push({ what, repository: repositoryOf(root, this.env) });
  }

  private trusts(repository: string, config?: { path: string; bytes: Buffer }): boolean {
    const real = realOf(repository);
    const entry = this.entries.find((e) => real === e.path || real.startsWith(`${e.path}/`));
    if (!entry) return false;
    if (!config) return true;
    return entry.configs[relative(entry.path, realOf(config.path))] === hashOf(config.bytes);
  }

  /**
   * Whether a program at `path` may run for the project at `project`: the
   * path as found and where it really is (a link into another repository
   * is that repository's) must each be the user's own or trusted.
   */
  mayRun(path: string, project: string, what: string): boolean {
    const untrusted = this.untrustedOwner(path, project);
    if (untrusted) this.leftOut.push({ what, repository: untrusted });
    return untrusted === undefined;
  }

  /** The repository not trusted whose code `path` is (as found, or where it really is); undefined: it may run. */
  untrustedOwner(path: string, project: string): string | undefined {
    if (this.all) return undefined;
    for (const p of new Set([path, realOf(path)])) {
      const repository = this.owner(p, realOf(project));
      if (repository && !this.trusts(repository)) return repository;
    }
    return undefined;
  }

  /** The repository a server's root lies in (its checkout's top, else the root). */
  repositoryOf(root: string): string {
    return repositoryOf(root, this.env);
  }

  /** Whether a `.lsp.json` may be read: the user's own, or its repository trusted with this very content. */
  mayRead(config: string, what: string): boolean {
    if (this.all) return true;
    const real = realOf(config);
    const repository = this.owner(real, dirname(real));
    if (!repository) return true;
    let bytes: Buffer;
    try {
      bytes = readFileSync(real);
    } catch {
      return true;
    }
    if (this.trusts(repository, { path: real, bytes })) return true;
    this.leftOut.push({ what, repository });
    return false;
  }
}

/** The one line a question says of what it left out. */
export function leftOutLine(leftOut: LeftOut[]): string | undefined {
  if (leftOut.length === 0) return undefined;
  const repositories = [...new Set(leftOut.map((l) => l.repository))];
  const what = [...new Set(leftOut.map((l) => l.what))].join(', ');
  return `left out ${what} (the repository's own code, not trusted yet); to run it: lspq trust ${repositories.join(' ')}`;
}
