/**
 * What of a workspace may run: the one decision that the runtime, `lspq
 * trust --explain` and the trust store all use. Restricted until trusted,
 * as VS Code's Restricted Mode: nothing found in a repository, or in a
 * folder above it, runs until the user trusts the folder it lies in,
 * whatever git says of it (tracked, ignored, untracked, vouched for or not).
 * What runs untrusted is found outside the workspace: the user's PATH
 * (absolute entries) and tool folders, and the user's own configuration.
 *
 * A path is covered by trust when the folder it really lies in (its
 * folders' links followed, the last name kept) is at or under a folder the
 * user trusts. LSPQ_TRUST=all covers everything.
 */
import { statSync } from 'node:fs';
import { readWorkspaceFile } from '../common/file-size';
import { basename, dirname, join, relative } from 'node:path';
import { type Containment, containmentFor, type BoxFinding } from '../box/containment';
import { realOf } from '../common/real-path';
import { checkoutTop } from '../project/checkout';
import { hashOf, readTrust, repositoryOf, type TrustEntry, trustFile } from './store';

/** Something of a workspace that was not run or read, for the line that says so and for `trust --explain`. */
export interface LeftOut {
  /** What was passed over, in a few words. */
  what: string;
  /** The folder `lspq trust` would take to let it run. */
  repository: string;
  /** The file behind it (the program, the configuration, the index). */
  file?: string;
  /** Said by `trust --explain` only: a restriction that costs the answer nothing a question could notice. */
  quiet?: boolean;
  /** The workspace's word about itself (an index), not its code: trusted only, box or none. */
  word?: boolean;
}

/** Where `path` itself lies: its folder's real place and its own name (a link is judged where the link is). */
export function placeOf(path: string): string {
  return join(realOf(dirname(path)), basename(path));
}

/** One question's view of trust, and what it left out. */
export class Trust {
  readonly leftOut: LeftOut[] = [];
  /** The servers this question could not start at all: their untrusted mode is not to run. */
  readonly refused = new Set<string>();
  /** Commands whose only installed program lies in the workspace, by command, with where: passed over. */
  readonly passedOver = new Map<string, string>();
  private readonly all: boolean;
  private readonly entries: TrustEntry[];
  private readonly env: Record<string, string | undefined>;
  private found: BoxFinding | undefined;

  constructor(env: Record<string, string | undefined>, entries?: TrustEntry[]) {
    this.all = env.LSPQ_TRUST === 'all';
    this.entries = this.all ? [] : (entries ?? readTrust(env));
    this.env = env;
  }

  /** The box this machine makes for what the user does not trust, or why none (then the allowlists hold). */
  get finding(): BoxFinding {
    this.found ??= this.all ? { none: 'LSPQ_TRUST=all' } : containmentFor(this.env);
    return this.found;
  }

  /** The box, where one can be made. */
  get box(): Containment | undefined {
    const f = this.finding;
    return 'box' in f ? f.box : undefined;
  }

  /**
   * The box a program runs in: none where the user trusts every place it
   * comes from (its workspace, its binary, its environment), else this
   * machine's (undefined with none: the allowlists decided what runs).
   */
  boxFor(places: readonly string[]): Containment | undefined {
    return places.every((p) => this.covers(p)) ? undefined : this.box;
  }

  /** Everything may run: for lspq's own benchmarks and tools, which choose their servers themselves. */
  static everything(): Trust {
    return new Trust({ LSPQ_TRUST: 'all' });
  }

  /** Nothing is trusted: what `trust --explain` asks, to list everything trust would let run. */
  static nothing(): Trust {
    return new Trust({ LSPQ_BOX: 'off' }, []);
  }

  /** What decides this view, for a cache of what it allowed: LSPQ_TRUST and the trust file's state. */
  static stamp(env: Record<string, string | undefined>): string {
    if (env.LSPQ_TRUST === 'all') return 'all';
    const box = env.LSPQ_BOX ?? '';
    try {
      return `${statSync(trustFile(env)).mtimeMs}:${box}`;
    } catch {
      return `none:${box}`;
    }
  }

  private entryFor(path: string): TrustEntry | undefined {
    const place = placeOf(path);
    return this.entries.find((e) => place === e.path || place.startsWith(`${e.path}/`));
  }

  /** Whether `path` lies in a folder the user trusts. */
  covers(path: string): boolean {
    return this.all || this.entryFor(path) !== undefined;
  }

  /**
   * Whether what a link at `path` leads to may run with it: a target in a
   * folder the user trusts, or in no repository at all (a global install);
   * a target inside another repository needs that one's trust too.
   */
  private coversTarget(path: string): boolean {
    const real = realOf(path);
    if (this.all || real === placeOf(path)) return true;
    return (
      this.entries.some((e) => real === e.path || real.startsWith(`${e.path}/`)) || checkoutTop(real) === undefined
    );
  }

  /** Whether servers for `root` run as configured (not in their untrusted mode): trusted, or contained. */
  trustsRoot(root: string): boolean {
    return this.covers(root) || this.box !== undefined;
  }

  /** Says what a question left out of the workspace at `root`. */
  leaveOut(what: string, root: string, extra: { file?: string; quiet?: boolean } = {}): void {
    this.leftOut.push({ what, repository: repositoryOf(root), ...extra });
  }

  /**
   * Whether a program, module or file found in the workspace at `path` may
   * run: trusted, or in the box; `found` is the folder it was found for
   * (what trusting lets it run). Passed over is said.
   */
  mayRun(path: string, found: string, what: string, quiet = false): boolean {
    if (this.covers(path) && this.coversTarget(path)) return true;
    // Contained, it runs in the box: whatever it loads can neither write nor reach anything (src/box/).
    if (this.box !== undefined) return true;
    this.leftOut.push({ what, repository: repositoryOf(found), file: path, ...(quiet ? { quiet } : {}) });
    return false;
  }

  /** Whether what the workspace says of itself (an index that came with it) is taken as its word: trusted only. */
  mayBelieve(path: string, found: string, what: string): boolean {
    if (this.covers(path) && this.coversTarget(path)) return true;
    this.leftOut.push({ what, repository: repositoryOf(found), file: path, word: true });
    return false;
  }

  /** Whether a `.lsp.json` may be read: in a trusted folder, with the content it had when trusted. */
  mayRead(config: string, what: string): boolean {
    if (this.all || this.box !== undefined) return true;
    const entry = this.entryFor(config);
    if (entry) {
      // Read without blocking: a .lsp.json replaced by a FIFO since it was trusted is skipped, never waited on.
      const read = readWorkspaceFile(config, 'configuration');
      if (!read.read) return read.stats === undefined; // gone: nothing to read
      if (entry.configs[relative(entry.path, placeOf(config))] === hashOf(read.bytes)) return true;
    }
    this.leftOut.push({ what, repository: repositoryOf(dirname(config)), file: config });
    return false;
  }
}

/** The one line a question says of what it left out (the quiet restrictions are for `trust --explain`). */
export function leftOutLine(leftOut: LeftOut[], notContained?: string): string | undefined {
  const said = leftOut.filter((l) => !l.quiet);
  if (said.length === 0) return undefined;
  const repositories = [...new Set(said.map((l) => l.repository))];
  const shown = (l: LeftOut) => {
    if (!l.file || l.file === l.repository) return l.what;
    const rel = relative(l.repository, l.file);
    return `${l.what} (${rel.startsWith('..') ? l.file : rel})`;
  };
  const what = [...new Set(said.map(shown))].join(', ');
  // Where no box could be made, why: installing bubblewrap would run it contained instead.
  const why = notContained && said.some((l) => !l.word) ? `, and no box can be made here (${notContained})` : '';
  return `left out ${what}: the workspace is not trusted${why} (lspq trust ${repositories.join(' ')} lets it run)`;
}
