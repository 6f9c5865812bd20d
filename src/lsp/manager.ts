/**
 * The pool of running servers, keyed by (server, root, the environment that
 * matters to it). Concurrent callers share one start in progress; a server
 * that crashes too often is left off for its root; idle servers stop. The
 * servers' memory is the pool's limit, not their number: a count applies
 * only where LSPQ_MAX_SERVERS sets one. A question's extra servers (Go's
 * other build configurations) are counted apart, stop soon after their
 * question, and go first when memory runs short: they never cost another
 * project its warm servers.
 */
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import { skippedError, skippedFiles } from '../common/file-size';
import { BoundedCache } from '../common/bounded-cache';
import { configuredHash, poolKey, trustModeOf } from './pool-key';
import { LspClient } from './client';
import { LineCache } from './convert';
import { SessionLock } from './leases';
import { processParents, treeMemory } from './memory';
import { Documents } from './documents';
import type { ServerSpec } from './servers/registry';
import { rememberServer } from './known-servers';
import type { PythonEnv } from './servers/install-places';
import type { LeftOut } from '../trust/decision';

export const SERVER_IDLE_MS = 10 * 60_000;
/** How long a question's extra server stays once idle: a question asked again soon finds it warm. */
export const EXTRA_IDLE_MS = 60_000;
/** vscode-languageclient's budget, tightened per the contract: 3 crashes in 3 minutes. */
export const CRASH_LIMIT = 3;
export const CRASH_WINDOW_MS = 3 * 60_000;

export interface Session {
  key: string;
  /** The binary started and the caller's environment as far as it keys the pool: what tells two sessions of one server and root apart. */
  binary: string;
  envKey: Record<string, string>;
  client: LspClient;
  docs: Documents;
  lastUsed: number;
  /** Requests in flight; an idle sweep never stops a busy server. */
  inFlight: number;
  /** Shared by questions that only read, held alone by one that changes what the server sees (leases.ts). */
  lock: SessionLock;
  /** The daemon's mark of changes on disk from just before the server read the disk: it is told what changed since. */
  diskMark?: number;
  /** Where a server whose first answer for a place can be partial (spec.settles) has given two that agreed. */
  settled?: Set<string>;
  /** Started for a question beside the project's own server (another build configuration): short-lived. */
  extra: boolean;
  /** The environment of the question that started it: where what it said of itself is remembered (its cache). */
  startedWith: Record<string, string>;
}

export interface PoolOptions {
  idleMs?: number;
  /** How many of the projects' servers may run at once (extras apart); no count but memory without it. */
  maxServers?: number;
  /** The servers' total resident memory the pool keeps under (bytes). */
  memoryLimit?: number;
  log?: (line: string) => void;
  /** Before a server for `root` starts: the daemon watches the root's files, and gives the mark to tell it changes from. */
  beforeStart?: (root: string) => Promise<number | undefined>;
  /** Why a running server cannot be brought up to date but by starting it again, if so (file-events.ts: outgrown). */
  renewIf?: (session: Session) => string | undefined;
}

/**
 * The servers' memory limit without LSPQ_MEMORY_LIMIT_MB: 40% of the
 * machine's memory (about 9.6 GB on a 24 GB machine), room for a few large
 * projects' servers beside the user's own programs.
 */
export function defaultMemoryLimit(): number {
  const { totalmem } = require('node:os') as typeof import('node:os');
  return Math.round(totalmem() * 0.4);
}

export interface MemoryReport {
  limit: number;
  total: number;
  /** Each server's memory, by pool key (null where it cannot be read). */
  each: Map<string, number | null>;
}

/** What else the daemon holds that counts under the servers' limit (a SCIP index: about its decoded size). */
export const HELD_MEMORY: (() => number)[] = [];

export interface AcquireOptions {
  spec: ServerSpec;
  binary: string;
  root: string;
  env: Record<string, string>;
  /** A question's extra server (another build configuration): counted apart, stopped soon (EXTRA_IDLE_MS). */
  extra?: boolean;
}

/**
 * What a server said of itself (its capabilities, what it registered since),
 * remembered in the user's cache for `servers --for`, which starts nothing:
 * as it starts, and again as it stops, its registrations all in.
 */
export function remember(session: Session): void {
  const { client } = session;
  rememberServer(session.startedWith, client.spec.id, session.binary, {
    capabilities: client.capabilities,
    registered: [...client.state.registrations.values()].map((r) => r.method),
  });
}

/**
 * No question holds the server or waits for its answer: it may be stopped.
 * A question holds its lease from before the server is ready to its end,
 * so a server a question is waiting on is never evicted under it.
 */
export const idle = (session: Session) => session.inFlight === 0 && session.lock.free;

/**
 * Finding a root and a binary walks up the tree and along PATH: most of a
 * warm answer's own cost. Remembered briefly, so a server installed or a
 * root marker added is seen within seconds.
 */
export const RESOLVE_CACHE_MS = 3_000;

/** What the pool remembers between questions, each bounded, for as long as the pool lives. */
/** How long a file an agent is editing is remembered as it was: a turn of the agent's, with room. */
const BASELINE_MS = 6 * 60 * 60_000;
/** How long a listing of code actions is held to its numbers: an agent lists, reads, then applies. */
const OFFERS_MS = 60 * 60_000;

export interface PoolCaches {
  /** Split lines of files and open documents (positions and previews). */
  lines: LineCache;
  /** A server's root and binary for a folder and caller (keyed by spec, folder, --root and PATH). */
  resolved: BoundedCache<string, Resolved>;
  /** A binary's version line, by path and modification time. */
  versions: BoundedCache<string, { line?: string }>;
  /**
   * A document's symbols (for --body and a reference's `in`), by server and path, with the text
   * they were asked for: the same string the open document holds, so a hit
   * costs a comparison and no copy.
   */
  symbols: BoundedCache<string, { text: string; symbols: (DocumentSymbol | SymbolInformation)[] }>;
  /**
   * Folders with no index at or above them (and no index file lspq left
   * out), by folder and trust: not looked for again for a few seconds (12
   * system calls of every warm question), and at once after `lspq index`.
   */
  indexless: BoundedCache<string, true>;
  /** Files found to be text (no NUL in their head), by path, with the stamp of the version sniffed. */
  texts: BoundedCache<string, string>;
  /**
   * Files as they were before an agent edited them (lspq hook run), by
   * agent and session, each by path (null: not there) with how that was
   * known: what an edit introduced is judged against them.
   */
  baselines: BoundedCache<string, Map<string, { text: string | null; how: string }>>;
  /**
   * The code actions listed last at a place, by place and the flags that
   * choose them, in the order numbered: `--apply N` applies the N-th only
   * while it is still the one listed there.
   */
  offers: BoundedCache<string, { id: string; title: string }[]>;
}

/** Where a server for a folder runs and its binary, as found for one caller. */
export interface Resolved {
  root: string;
  binary: string;
  /** The rule that found the binary. */
  rule: string;
  /** The project's Python environment, for a Python server. */
  python?: PythonEnv;
  /** The site-packages of a Python environment not trusted, read as files. */
  packages?: string[];
  /** What the look-up left out as the repository's own code, not trusted. */
  leftOut?: LeftOut[];
}

export class ServerPool {
  readonly caches: PoolCaches = {
    lines: new LineCache(),
    resolved: new BoundedCache(1_000, RESOLVE_CACHE_MS),
    versions: new BoundedCache(64),
    symbols: new BoundedCache(64),
    indexless: new BoundedCache(1_000, RESOLVE_CACHE_MS),
    texts: new BoundedCache(1_000),
    baselines: new BoundedCache(64, BASELINE_MS),
    offers: new BoundedCache(256, OFFERS_MS),
  };
  private readonly sessions = new Map<string, Session>();
  /** Each server spec's configuration hashed once: hashed anew, it cost every warm question 0.02 ms. */
  private readonly configuredHashes = new WeakMap<ServerSpec, string>();
  private readonly starting = new Map<string, { root: string; session: Promise<Session>; abort: AbortController }>();
  private readonly crashes = new Map<string, number[]>();
  private readonly broken = new Set<string>();
  private readonly idleMs: number;
  private readonly extraIdleMs: number;
  private readonly maxServers: number;
  readonly memoryLimit: number;
  private readonly log: (line: string) => void;
  private readonly beforeStart: PoolOptions['beforeStart'];
  private readonly renewIf: PoolOptions['renewIf'];
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(options: PoolOptions = {}) {
    this.idleMs = options.idleMs ?? SERVER_IDLE_MS;
    this.extraIdleMs = Math.min(this.idleMs, EXTRA_IDLE_MS);
    this.maxServers = options.maxServers ?? Number.POSITIVE_INFINITY;
    this.memoryLimit = options.memoryLimit ?? defaultMemoryLimit();
    this.log = options.log ?? (() => {});
    this.beforeStart = options.beforeStart;
    this.renewIf = options.renewIf;
    this.sweeper = setInterval(() => void this.stopIdle(), Math.min(this.extraIdleMs, 30_000));
    this.sweeper.unref?.();
  }

  get size(): number {
    return this.sessions.size;
  }

  list(): Session[] {
    return [...this.sessions.values()];
  }

  /** The roots of the servers running and starting. */
  roots(): Set<string> {
    return new Set([...this.list().map((s) => s.client.root), ...[...this.starting.values()].map((s) => s.root)]);
  }

  brokenList(): { id: string; root: string }[] {
    return [...this.broken].map((k) => {
      const [id = '', root = ''] = k.split('\0');
      return { id, root };
    });
  }

  private keyOf(options: AcquireOptions): string {
    return poolKey(options.spec, options.root, options.binary, options.env, (spec) => {
      let hash = this.configuredHashes.get(spec);
      if (hash === undefined) {
        hash = configuredHash(spec);
        this.configuredHashes.set(spec, hash);
      }
      return hash;
    });
  }

  /**
   * The running server for `options`, when one is and need not start again:
   * a warm question takes it without waiting a turn.
   */
  warm(options: AcquireOptions): Session | undefined {
    const existing = this.sessions.get(this.keyOf(options));
    if (!existing?.client.running || this.renewIf?.(existing)) return undefined;
    this.used(existing, options);
    return existing;
  }

  /** The running server for `options`, if one runs, left as it is (not counted as asked: `servers --for` looks). */
  peek(options: AcquireOptions): Session | undefined {
    const existing = this.sessions.get(this.keyOf(options));
    return existing?.client.running ? existing : undefined;
  }

  /** Asked now; an extra asked as the project's own server is one from then on. */
  private used(session: Session, options: AcquireOptions): void {
    session.lastUsed = Date.now();
    if (!options.extra) session.extra = false;
  }

  async acquire(options: AcquireOptions): Promise<Session> {
    const { spec, root } = options;
    const brokenKey = `${spec.id}\0${root}`;
    if (this.broken.has(brokenKey)) {
      throw new LspqError(
        'server_broken',
        `${spec.id} crashed ${CRASH_LIMIT} times in ${CRASH_WINDOW_MS / 60_000} minutes for ${root} and is left off; fix the cause (see 'lspq daemon logs') and run 'lspq daemon restart'`,
      );
    }
    const key = this.keyOf(options);
    const existing = this.sessions.get(key);
    // Asked once: whether it runs reads /proc.
    const running = existing?.client.running ? existing : undefined;
    const renew = running && this.renewIf?.(running);
    if (running && renew) {
      this.log(`${spec.id} (${root}): ${renew}; starting it again`);
      this.retire(running);
    } else if (running) {
      this.used(running, options);
      return running;
    } else if (existing) {
      // Died between questions, its exit not yet reported: a crash all the same.
      this.sessions.delete(key);
      this.recordCrash(spec.id, root);
      void existing.client.shutdown(); // its process group may hold children
    }
    // A question that skipped a file of the workspace starts no server for it: the server would read the same
    // file (a FIFO waited forever; cargo read a /dev/zero Cargo.toml to 5 GB in 5 s).
    const skips = skippedFiles.getStore();
    if (skips?.size) throw skippedError(skips, `no server was started for ${root}, which would read it too`);
    const pending = this.starting.get(key);
    if (pending) return pending.session;
    const abort = new AbortController();
    const start = this.start(key, options, abort.signal).finally(() => this.starting.delete(key));
    this.starting.set(key, { root, session: start, abort });
    return start;
  }

  private async start(key: string, options: AcquireOptions, signal: AbortSignal): Promise<Session> {
    // The same server for the same root in the other trust mode (the root was just trusted, or trust revoked):
    // replaced, not kept beside it.
    const mode = trustModeOf(options.spec);
    for (const other of this.list())
      if (
        other.client.spec.id === options.spec.id &&
        other.client.root === options.root &&
        trustModeOf(other.client.spec) !== mode
      ) {
        this.log(`${options.spec.id} (${options.root}): trust changed; replacing the one started before`);
        this.retire(other);
      }
    if (!options.extra) await this.makeRoom();
    const diskMark = await this.beforeStart?.(options.root);
    this.log(`starting ${options.spec.id} (${options.binary}) for ${options.root}`);
    const client = await LspClient.start({ ...options, log: this.log, signal });
    const envKey = Object.fromEntries(options.spec.envKeys.map((k) => [k, options.env[k] ?? '']));
    const session: Session = {
      key,
      binary: options.binary,
      envKey,
      client,
      docs: new Documents(client),
      lastUsed: Date.now(),
      inFlight: 0,
      lock: new SessionLock(),
      ...(diskMark !== undefined ? { diskMark } : {}),
      extra: options.extra === true,
      startedWith: options.env,
    };
    this.sessions.set(key, session);
    remember(session);
    client.state.onEvent(() => {
      if (client.alive || this.sessions.get(key) !== session) return;
      this.sessions.delete(key);
      this.recordCrash(options.spec.id, options.root);
    });
    return session;
  }

  /**
   * Out of the pool at once (the next question starts a fresh one); stopped
   * once no question holds it or asks it anything.
   */
  private retire(session: Session): void {
    this.sessions.delete(session.key);
    const stopWhenFree = () => {
      if (!idle(session)) return;
      unwatch();
      remember(session);
      void session.client.shutdown();
    };
    const unwatch = session.lock.watch(stopWhenFree);
    stopWhenFree();
  }

  private recordCrash(id: string, root: string): void {
    const brokenKey = `${id}\0${root}`;
    const now = Date.now();
    const recent = (this.crashes.get(brokenKey) ?? []).filter((t) => now - t < CRASH_WINDOW_MS);
    recent.push(now);
    this.crashes.set(brokenKey, recent);
    this.log(`${id} crashed for ${root} (${recent.length} in the window)`);
    if (recent.length >= CRASH_LIMIT) this.broken.add(brokenKey);
  }

  /** Where LSPQ_MAX_SERVERS sets a count: the least recently used idle project server goes when it is reached. */
  private async makeRoom(): Promise<void> {
    const counted = () => this.list().filter((s) => !s.extra);
    while (counted().length >= this.maxServers) {
      const oldest = counted()
        .filter(idle)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!oldest) return;
      this.log(`pool full: stopping ${oldest.client.spec.id} (${oldest.client.root})`);
      await this.stop(oldest);
    }
  }

  private async stop(session: Session): Promise<void> {
    this.sessions.delete(session.key);
    remember(session);
    await session.client.shutdown();
  }

  /** Each server's memory (its process tree) and the total, with what the daemon holds beside them (indexes). */
  memory(): MemoryReport {
    const parents = processParents();
    const each = new Map(this.list().map((s) => [s.key, treeMemory(s.client.pid, parents)] as const));
    const held = HELD_MEMORY.reduce((n, measure) => n + measure(), 0);
    const total = [...each.values()].reduce<number>((n, m) => n + (m ?? 0), held);
    return { limit: this.memoryLimit, total, each };
  }

  /**
   * Keeps the servers' total memory under the limit: idle extras stop
   * first, then the least recently used idle server (never the one just
   * asked). Where none is
   * left to stop, a server that alone is over the limit is stopped though
   * busy: the question it serves fails naming both sizes, and the next gets
   * a fresh server. Several in use, each under the limit, are kept (logged).
   */
  async enforceMemoryLimit(): Promise<void> {
    const mb = (n: number) => `${Math.round(n / 1_048_576)} MB`;
    let report = this.memory();
    while (report.total > this.memoryLimit) {
      const newest = this.newest();
      const idleOnes = this.list()
        .filter((s) => idle(s) && s !== newest)
        .sort((a, b) => Number(b.extra) - Number(a.extra) || a.lastUsed - b.lastUsed);
      const victim = idleOnes[0];
      if (victim) {
        this.log(
          `memory over the limit: stopping ${victim.client.spec.id} (${victim.client.root}), ${mb(report.each.get(victim.key) ?? 0)}`,
        );
        await this.stop(victim);
      } else {
        const [biggest] = this.list().sort((a, b) => (report.each.get(b.key) ?? 0) - (report.each.get(a.key) ?? 0));
        const size = biggest ? (report.each.get(biggest.key) ?? 0) : 0;
        if (!biggest || size <= this.memoryLimit) {
          this.log(
            `warning: servers use ${mb(report.total)}, over the ${mb(this.memoryLimit)} limit (LSPQ_MEMORY_LIMIT_MB); keeping the ones in use, each under it`,
          );
          return;
        }
        this.log(
          `memory over the limit: ${biggest.client.spec.id} (${biggest.client.root}) alone uses ${mb(size)}; stopping it though in use`,
        );
        this.sessions.delete(biggest.key);
        await biggest.client.stopOverMemory(`${mb(size)}, over the ${mb(this.memoryLimit)} limit`);
      }
      report = this.memory();
    }
  }

  /** The server asked most recently: the one a question is about, never evicted for another. */
  private newest(): Session | undefined {
    return this.list().sort((a, b) => b.lastUsed - a.lastUsed)[0];
  }

  async stopIdle(now = Date.now()): Promise<void> {
    for (const session of this.list()) {
      if (idle(session) && now - session.lastUsed >= (session.extra ? this.extraIdleMs : this.idleMs)) {
        this.log(
          `idle: stopping ${session.client.spec.id} (${session.client.root})${session.extra ? ', an extra' : ''}`,
        );
        await this.stop(session);
      }
    }
  }

  async shutdownAll(): Promise<void> {
    clearInterval(this.sweeper);
    // A server still starting (one that never answers initialize) is killed, not waited for.
    for (const s of this.starting.values()) s.abort.abort();
    const starting = [...this.starting.values()].map((p) =>
      p.session.then(
        (s) => this.stop(s),
        () => {},
      ),
    );
    await Promise.all([...this.list().map((s) => this.stop(s)), ...starting]);
  }
}
