/**
 * What crosses the daemon's socket: the command line going in (its shapes
 * are checked where they arrive, in socket-shapes.ts), and the lines coming
 * back: progress, a batch's answers, the reply, the daemon's status.
 */
import type { CommandOutput, ErrorPayload } from './errors';

/** A question's whole budget without --timeout: the engine enforces it, the command waits a little longer. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Bumped whenever these shapes change; the build id covers the rest. */
export const PROTOCOL_VERSION = 4;

// The shapes checked where they arrive (the daemon) are written once, as schemas.
export type { BatchInput, CommandLine, Envelope, Request } from './socket-shapes';

/** The edit id of a batch's request: the batch's id and the request's line number (from 0). */
export const batchEditId = (batchId: string, index: number) => `${batchId}-${index}`;

/** An answer line of a batch, sent as soon as it is its turn. */
export interface AnswerLine {
  answer: string;
}

/** Lines the daemon may send before the reply, while a long answer is under way: text for a person. */
export interface ProgressLine {
  progress: string;
}

/** What became of an edit whose command lost its daemon (the daemon's journal kept it). */
export interface EditOutcome {
  written: boolean;
  summary: string;
  /** Files another program wrote after the edit began: left as they are. */
  left?: string[];
  /** The command's whole output, when the daemon lived to render it. */
  output?: CommandOutput;
  /** Set when its journal is still there, unsettled (unreadable, or another live process writes it): the outcome is not known. */
  unsettled?: string;
}

/** One line of JSON from the daemon back, shaped by the request it answers. */
export type Reply =
  | { ok: true; output: CommandOutput }
  | { ok: true; outcome: EditOutcome | null }
  | { ok: true; status: DaemonStatus }
  | { ok: true; pid: number; build: string }
  | { ok: false; error: ErrorPayload }
  | { ok: false; mismatch: { build: string; protocol: number } };

export interface HeldServer {
  id: string;
  root: string;
  binary: string;
  /** The caller's environment variables that key the pool (PATH, VIRTUAL_ENV, GOFLAGS...). */
  env: Record<string, string>;
  pid: number | undefined;
  uptimeSeconds: number;
  memoryBytes: number | null;
  requests: number;
  state: string;
  /** A question's extra server (another build configuration): counted apart from the pool's, stopped soon. */
  extra?: boolean;
}

export interface DaemonStatus {
  pid: number;
  build: string;
  socket: string;
  uptimeSeconds: number;
  memoryBytes: number;
  /** Of it, the JavaScript heap in use. */
  heapBytes: number;
  servers: HeldServer[];
  broken: { id: string; root: string }[];
  /** The servers' memory together (each with its child processes), and the limit the daemon keeps it under. */
  serversMemoryBytes: number;
  memoryLimitBytes: number;
}
