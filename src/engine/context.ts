/**
 * What every question's handler is given: the engine's pool, log and hooks,
 * its own leases and trust, and one deadline for the whole question
 * (server start, readiness and the request share it).
 */

import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { DEFAULT_TIMEOUT_MS } from '../common/messages';
import type { RequestOptions, ServerTime } from '../lsp/request-options';
import type { Leases } from '../lsp/leases';
import type { ServerPool, Session } from '../lsp/manager';
import type { Withheld } from '../answers/diagnostics';
import type { Trust } from '../trust/decision';
import type { CallerContext } from '../answers/caller';
import type { DiskView } from '../lsp/file-events';

/** What the engine gives every question: the pool, cancellation, the log, the daemon's hooks. */
export interface EngineContext {
  pool: ServerPool;
  signal?: AbortSignal;
  log: (line: string) => void;
  /** The daemon tells the server of files changed on disk before each request. */
  beforeRequest?: (session: Session) => Promise<void>;
  /** Long answers (a project loading, diag --all) say how far they are, for a person at a terminal. */
  progress?: (text: string) => void;
  /** Where edits are journaled (beside the daemon's socket): every write goes through a journal there. */
  journalDir?: string;
  /** A line for stderr beside the answer (what was left out as untrusted), once per command. */
  warn?: (line: string) => void;
  /** The daemon's watch of the disk: a root watched from now on, and what changed under it since a mark. */
  disk?: DiskView & { watch(root: string): Promise<number> };
  /** The question's requests' time with their servers, added up (the daemon logs its own part beside it). */
  serverTime?: ServerTime;
}

/** A question's own view of the engine: the leases it holds on servers, given back when it ends, and what it may run. */
export interface HandlerContext extends EngineContext {
  leases: Leases<Session>;
  /** What of a repository's own code may run for this question, and what it left out (said once, on stderr). */
  trust: Trust;
  /** What each command (or part of one: fmt-range, symbols-w) needs of a server, for `servers --for`. */
  capabilities: readonly [string, (c: ServerCapabilities) => boolean][];
  /** Checkers the project configures that could not run for this question (diag says its answer is not whole). */
  withheld: Map<string, Withheld>;
  /** The servers this question starts are extras (another build configuration's): counted apart, stopped soon. */
  extraServers?: boolean;
}

/** One deadline for the whole question: server start, readiness and the request share it. */
export class Deadline {
  private readonly end: number;
  constructor(readonly totalMs: number) {
    this.end = Date.now() + totalMs;
  }
  get remaining(): number {
    return Math.max(1, this.end - Date.now());
  }
  /**
   * Request options: what is left of the budget, the whole budget for the
   * message if it runs out, the question's cancellation, and its progress
   * line for a person at a terminal while the request is slow.
   */
  options(ctx: { signal?: AbortSignal; progress?: (text: string) => void; serverTime?: ServerTime }): RequestOptions {
    return {
      timeoutMs: this.remaining,
      budgetMs: this.totalMs,
      signal: ctx.signal,
      progress: ctx.progress,
      serverTime: ctx.serverTime,
    };
  }
}

export function deadlineFor(req: CallerContext): Deadline {
  return new Deadline(req.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** How much of a file is looked at for NUL bytes, as git and grep decide that a file is binary. */
