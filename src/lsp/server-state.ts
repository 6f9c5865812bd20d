/**
 * What a running server has told lspq: its registrations, the diagnostics
 * it published, the work it reports (progress), and the signals that its
 * answers are complete (readiness, docs/servers.md). Every change wakes the
 * waiters, who check their own condition again.
 */
import type { Diagnostic, ProgressToken, Registration } from 'vscode-languageserver-protocol';
import type * as z from 'zod/mini';
import type { NOTIFICATION_SHAPES } from './message-shapes';
import type { Readiness } from './servers/spec';

/** How long a server told of a manifest change may take to say it is loading its workspace again. */
const RELOAD_WAIT_MS = 3_000;
/** How long a server that indexes (intelephense), told of a changed source, may take to begin indexing it. */
const INDEXING_WAIT_MS = 1_000;

export interface PublishedDiagnostics {
  version: number | undefined;
  diagnostics: Diagnostic[];
  /** Increments with every publish, so a waiter can tell a new wave from an old one. */
  sequence: number;
}

/** A $/progress value as checked: 'begin' (with a title), 'report' or 'end'; another kind counts as a report. */
export type ProgressValue = z.infer<typeof NOTIFICATION_SHAPES.progress>['value'];

/** How many ended pieces of work are remembered (a question looks at those since it began). */
const ENDED_KEPT = 64;

/** The work whose end says rust-analyzer has read the workspace's files. */
const LOADED = ['Roots Scanned', 'Indexing'];

export class ServerState {
  readonly registrations = new Map<string, Registration>();
  readonly diagnostics = new Map<string, PublishedDiagnostics>();
  /** Counts workspace/diagnostic/refresh requests: pulled results older than the last one are stale. */
  refreshRequested = 0;
  /** How many pieces of work the server has begun reporting, by token: a waiter tells a new one from an old one. */
  progressBegun = 0;
  /** How many it has ended. */
  private progressEnded = 0;
  /** With readiness 'indexing': the count of progress begun when changed sources were told, until more begins. */
  private indexingAwaited: number | undefined;
  private readonly activeProgress = new Map<ProgressToken, string>();
  private quiescent = false;
  /** How many serverStatus notifications have come: a reload expected is over once one has. */
  private statuses = 0;
  /** Work under way by token: when it began (in begins counted) and whether it reported or published anything. */
  private readonly running = new Map<string, { began: number; worked: boolean }>();
  /** The last work that ended, oldest first. */
  private readonly ended: { token: string; began: number; worked: boolean; at: number }[] = [];
  /** The titles of the work that has ended at least once. */
  private readonly endedTitles = new Set<string>();
  private readyLogSeen = false;
  private publishSequence = 0;
  private readonly listeners = new Set<() => void>();

  /**
   * @param readiness the server's readiness strategy (its registry entry)
   * @param indexes it indexes its project in the background (clangd with a compilation database) at this root
   */
  constructor(
    private readonly readiness: Readiness,
    private readonly indexes: boolean,
  ) {}

  /** Wakes every waiter; they re-check their own condition. */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Subscribes to server events (progress, diagnostics, registrations, exit). */
  onEvent(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  published(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void {
    this.diagnostics.set(uri, { version, diagnostics, sequence: ++this.publishSequence });
    // A check that published a problem ran (one that fails to compile reports no crate); an empty list is
    // only the last check's problems cleared, which a check cancelled at once also does.
    if (diagnostics.length > 0) for (const run of this.running.values()) run.worked = true;
    this.notify();
  }

  progressed(token: ProgressToken, value: ProgressValue): void {
    if (value.kind === 'begin') {
      this.activeProgress.set(token, value.title ?? '');
      this.progressBegun++;
      this.indexingAwaited = undefined;
      this.running.set(String(token), { began: this.progressBegun, worked: false });
    } else if (value.kind === 'end') {
      const run = this.running.get(String(token));
      if (run) this.ended.push({ token: String(token), ...run, at: Date.now() });
      if (this.ended.length > ENDED_KEPT) this.ended.shift();
      this.running.delete(String(token));
      const title = this.activeProgress.get(token)?.split(': ')[0];
      if (this.activeProgress.delete(token)) this.progressEnded++;
      if (title) this.endedTitles.add(title);
    } else if (this.activeProgress.has(token)) {
      const run = this.running.get(String(token));
      if (run) run.worked = true;
      // The title stays; the report's message ("12/40", a file name) replaces the last one.
      const [title = ''] = (this.activeProgress.get(token) ?? '').split(': ');
      this.activeProgress.set(token, value.message ? `${title}: ${value.message}` : title);
    }
    this.notify();
  }

  /**
   * The work under the tokens `which` picks that began after `begins` (a
   * count of progressBegun) and has ended, and whether each reported any
   * (rust-analyzer ends a check it cancelled without a report).
   */
  endedSince(which: (token: string) => boolean, begins: number): { worked: boolean; at: number }[] {
    return this.ended.filter((e) => e.began > begins && which(e.token));
  }

  /** Whether work under the tokens `which` picks began after `begins` (a count of progressBegun), ended or not. */
  begunSince(which: (token: string) => boolean, begins: number): boolean {
    for (const [token, run] of this.running) if (run.began > begins && which(token)) return true;
    return this.endedSince(which, begins).length > 0;
  }

  /** rust-analyzer's experimental/serverStatus. */
  status(quiescent: boolean): void {
    this.quiescent = quiescent;
    this.statuses++;
    this.notify();
  }

  /**
   * The server was told of a change that makes it load its workspace again
   * (rust-analyzer: a Cargo manifest): not ready until it says it is
   * quiescent once more. Where no status comes within RELOAD_WAIT_MS (it
   * found nothing to reload), it is taken as quiescent still.
   */
  expectReload(): void {
    if (this.readiness !== 'quiescent') return;
    const before = this.statuses;
    this.quiescent = false;
    this.unlessWithin(
      RELOAD_WAIT_MS,
      () => this.statuses !== before,
      () => {
        this.quiescent = true;
      },
    );
  }

  /** After `ms`, unless `happened` by then: `otherwise`, and the waiters told. */
  private unlessWithin(ms: number, happened: () => boolean, otherwise: () => void): void {
    setTimeout(() => {
      if (happened()) return;
      otherwise();
      this.notify();
    }, ms).unref?.();
  }

  /** Failures the server logged (its `failureLog`), and the error line after the last: why. */
  failuresLogged = 0;
  lastFailure = '';
  private failing = false;

  /** A log line at error level: a failure the server names, or the error that follows one. */
  loggedError(message: string, failure: RegExp | undefined): void {
    if (failure?.test(message)) {
      this.failuresLogged++;
      this.lastFailure = '';
      this.failing = true;
    } else if (this.failing) {
      const [first = ''] = message.split('\n', 1);
      this.lastFailure = first.trim();
      this.failing = false;
    }
  }

  /** The log line that says the project is enumerated (pyright's "Found N source files"). */
  readyLog(): void {
    this.readyLogSeen = true;
    this.notify();
  }

  /**
   * Files the server said no project of its covers since their text was
   * last sent (its `unservedLog`): nothing will be published for them.
   */
  readonly unserved = new Set<string>();

  /** The server said no project of its covers `path`: it is ready for it, with nothing to say. */
  unservedFile(path: string): void {
    this.unserved.add(path);
    this.readyLog();
  }

  /** How many publishes have come so far: one that comes later is news. */
  get publishes(): number {
    return this.publishSequence;
  }

  /** The tokens of the work the server is reporting now. */
  get progressTokens(): ProgressToken[] {
    return [...this.activeProgress.keys()];
  }

  get busy(): boolean {
    return this.activeProgress.size > 0;
  }

  get progressTitles(): string[] {
    return [...this.activeProgress.values()];
  }

  /** True once the server says its answers are complete (docs/servers.md: readiness). */
  isReady(openUris: string[]): boolean {
    switch (this.readiness) {
      case 'immediate':
        return true;
      case 'progress':
        return !this.busy;
      case 'indexing':
        return !this.busy && this.progressEnded > 0 && this.indexingAwaited === undefined;
      case 'indexed':
        return (
          !this.busy && openUris.every((uri) => this.diagnostics.has(uri)) && (!this.indexes || this.progressEnded > 0)
        );
      case 'quiescent':
        // A status of quiescent can come before the first load of the workspace has begun (under load, a
        // cold refs saw 197 of 450 references, and with two busy cores none): ready once its files are
        // loaded (rust-analyzer's "Roots Scanned", or the "Indexing" that follows it) and nothing is under way.
        return this.quiescent && !this.busy && LOADED.some((t) => this.endedTitles.has(t));
      case 'enumerated':
        return this.readyLogSeen;
    }
  }

  /**
   * Source files were created or deleted: a server that enumerates its
   * project (pyright) does so again on a timer of its own, and is not ready
   * until it says so once more.
   */
  expectEnumeration(): void {
    if (this.readiness === 'enumerated') this.readyLogSeen = false;
  }

  /**
   * A server that indexes was told of changed sources (intelephense indexes
   * them a few milliseconds later, and a question sent at once was answered
   * from the old index): not ready until indexing has begun again, and so
   * until it ends; where none begins within INDEXING_WAIT_MS, it had nothing
   * to index.
   */
  expectIndexing(): void {
    if (this.readiness !== 'indexing') return;
    const begun = this.progressBegun;
    this.indexingAwaited = begun;
    this.unlessWithin(
      INDEXING_WAIT_MS,
      () => this.indexingAwaited !== begun,
      () => {
        this.indexingAwaited = undefined;
      },
    );
  }
}
