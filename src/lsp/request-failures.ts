/** What a failed request becomes: one line for the user with the server's whole message (its stack trace in the log only). */
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver-protocol';
import { LspqError, messageOf } from '../common/errors';

/** A request the server asked to be sent again; what to report if time runs out first. */
export class RetryableError extends Error {
  constructor(readonly failure: LspqError) {
    super(failure.message);
  }
}

/** Where a stack trace begins: a JavaScript or Java frame, Python's traceback, Go's goroutine dump, Rust's backtrace. */
const STACK_START = /^(\s+at\s|Traceback \(most recent call last\):|goroutine \d+ \[|stack backtrace:)/;

/**
 * A server's message as one line: every line it wrote (gopls's reason for
 * refusing a rename is three: the refusal, why, and what to do) up to a
 * stack trace, each trimmed, joined by "; "; the line a stack begins with
 * (`Error: ...`) left out where an earlier line says it already. Pure.
 */
export function serverWords(message: string): string {
  const lines: string[] = [];
  let stack = false;
  for (const raw of message.split('\n')) {
    stack = STACK_START.test(raw);
    if (stack) break;
    const line = raw.replace(/\s+/g, ' ').trim().replace(/:$/, '');
    if (line !== '') lines.push(line);
  }
  // A JavaScript stack opens with its error's message again (`Error: Debug Failure.`), right before the frames.
  const last = lines.at(-1) ?? '';
  const again = last.replace(/^\w*Error: /, '');
  if (stack && again !== last && lines.slice(0, -1).some((l) => l.endsWith(again))) lines.pop();
  return lines.join('; ') || (message.trim().split('\n')[0] ?? '');
}

export const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

/**
 * The error a request's failure is reported as: lspq's own as it is; a
 * server busy with a change (ServerCancelled, ContentModified) asks for the
 * request again; a method it lacks is `unsupported`; anything else is the
 * server's failure in its own words, whole but for a stack trace (a
 * server's error can carry one, as tsserver's does), which is logged.
 */
export function requestFailure(err: unknown, id: string, method: string, log: (line: string) => void): Error {
  if (err instanceof LspqError) return err;
  if (
    err instanceof ResponseError &&
    (err.code === LSPErrorCodes.ServerCancelled || err.code === LSPErrorCodes.ContentModified)
  ) {
    return new RetryableError(
      new LspqError(
        'server_failed',
        `${id} kept cancelling ${method} (${serverWords(err.message)}); retry, or see 'lspq daemon logs'`,
      ),
    );
  }
  if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) {
    return new LspqError('unsupported', `${id} does not support ${method}; try another server with --server`);
  }
  const message = messageOf(err);
  const reason = serverWords(message);
  if (message.includes('\n')) log(`${id} failed ${method}: ${message}`);
  return new LspqError('server_failed', `${id} failed ${method}: ${reason}; see 'lspq daemon logs'`, reason);
}
