/**
 * lspq's one error type. Every failure a user can see is an LspqError with a
 * stable code (for `--json`), the exit code of the contract, and a message
 * that already says what to do. Only main.ts turns it into an exit.
 */
export type ExitCode = 0 | 1 | 2 | 3 | 4;

export type ErrorCode =
  | 'usage'
  | 'file_not_found'
  | 'not_text'
  | 'bad_position'
  | 'name_not_on_line'
  | 'symbol_not_found'
  | 'ambiguous_symbol'
  | 'ambiguous_target'
  | 'cannot_rename'
  | 'patch_does_not_apply'
  | 'no_server'
  | 'server_not_installed'
  | 'untrusted'
  | 'server_failed'
  | 'server_crashed'
  | 'server_broken'
  | 'timeout'
  | 'unsupported'
  | 'incomplete'
  | 'outside_workspace'
  | 'stale_edit'
  | 'not_utf8'
  | 'taken_back'
  | 'write_failed'
  | 'refused'
  | 'action_not_offered'
  | 'git_failed'
  | 'daemon'
  | 'internal';

const EXIT_BY_CODE: Record<ErrorCode, ExitCode> = {
  usage: 2,
  file_not_found: 2,
  not_text: 2,
  bad_position: 2,
  name_not_on_line: 2,
  symbol_not_found: 2,
  ambiguous_symbol: 2,
  ambiguous_target: 2,
  cannot_rename: 2,
  patch_does_not_apply: 2,
  no_server: 3,
  server_not_installed: 3,
  untrusted: 3,
  server_failed: 3,
  server_crashed: 3,
  server_broken: 3,
  timeout: 3,
  unsupported: 3,
  incomplete: 3,
  outside_workspace: 2,
  stale_edit: 3,
  not_utf8: 3,
  taken_back: 3,
  write_failed: 3,
  refused: 4,
  // The server answered, and the action asked for is not among what it offers now.
  action_not_offered: 1,
  git_failed: 1,
  daemon: 3,
  internal: 3,
};

/** Marks lspq's errors across copies of this module (see hasInstance below). */
const BRAND = Symbol.for('lspq.error');

export class LspqError extends Error {
  readonly exit: ExitCode;
  readonly [BRAND] = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** A server's own words, when it refused a request: for a caller to quote them without lspq's wrapping. */
    readonly serverReason?: string,
    /** On a miss: ready targets or --symbol values, each one that resolves if fed back. */
    readonly candidates?: string[],
  ) {
    super(message);
    this.name = 'LspqError';
    this.exit = EXIT_BY_CODE[code];
  }

  /**
   * The engine is a second entry point of the binary and may carry its own
   * copy of this class; an error it throws is still an LspqError to the
   * command (an "internal error" otherwise, as a --no-daemon run found).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}

/** The plain-object form that crosses the daemon socket. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  candidates?: string[];
}

/** What a caught value says: an Error's message, anything else as text (JavaScript can throw anything). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A caught value for a log: an Error's stack, anything else as text. */
export function stackOf(err: unknown): string {
  return (err instanceof Error ? err.stack : undefined) ?? String(err);
}

/** A system error's code (ENOENT, EEXIST...), or undefined for anything else thrown. */
export function errnoOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

export function toErrorPayload(err: unknown): ErrorPayload {
  if (err instanceof LspqError) {
    return { code: err.code, message: err.message, ...(err.candidates?.length ? { candidates: err.candidates } : {}) };
  }
  return { code: 'internal', message: `internal error: ${messageOf(err)} (please report it with the command you ran)` };
}

export function fromErrorPayload(payload: ErrorPayload): LspqError {
  const code = payload.code in EXIT_BY_CODE ? payload.code : 'internal';
  return new LspqError(code, payload.message, undefined, payload.candidates);
}

export const usage = (message: string) => new LspqError('usage', message);

/** What a command prints and how it exits: the same shape whether the engine ran in the daemon or here. */
export interface CommandOutput {
  stdout: string;
  /** For stderr as `lspq: ...` lines: the one-line error, or a summary that is part of the answer (diag's counts). */
  stderr?: string;
  /** Notes for a person (an answer cut at --limit, git's own warnings), printed to stderr through consola. */
  warnings?: string[];
  exit: ExitCode;
  /** With a line's `alsoText`: the answer's lines for a person beside its JSON in stdout (MCP's two renderings of one run). */
  text?: string;
  /** Set when the output is an error's: what batch answers with, without reading stdout back. */
  error?: ErrorPayload;
}

/**
 * The engine's notes on a command (what it left out as untrusted, a server
 * passed over) added to its output, each once: warnings for a person, and
 * with --json the document's `notes`, so a script sees what a person would.
 */
export function withNotes(out: CommandOutput, notes: ReadonlySet<string>, json: boolean): CommandOutput {
  if (notes.size === 0) return out;
  const warned = { ...out, warnings: [...notes, ...(out.warnings ?? [])] };
  if (!json || !out.stdout.startsWith('{')) return warned;
  try {
    const doc: unknown = JSON.parse(out.stdout);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return warned;
    return { ...warned, stdout: `${JSON.stringify({ ...doc, notes: [...notes] })}\n` };
  } catch {
    return warned; // not one document (a stream): the warnings say it
  }
}

/** An error as the command shows it: a JSON document on stdout with --json, always one line on stderr. */
export function errorOutput(err: unknown, json: boolean): CommandOutput {
  const payload = toErrorPayload(err);
  return {
    stdout: json ? `${JSON.stringify({ error: payload })}\n` : '',
    stderr: payload.message,
    exit: err instanceof LspqError ? err.exit : 3,
    error: payload,
  };
}
