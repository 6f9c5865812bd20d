/** What a failed request becomes: one line for the user, the server's whole message in the log. */
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver-protocol';
import { LspqError, messageOf } from '../common/errors';

/** A request the server asked to be sent again; what to report if time runs out first. */
export class RetryableError extends Error {
  constructor(readonly failure: LspqError) {
    super(failure.message);
  }
}

/** A message's first non-empty line, without a trailing colon. */
export function firstLine(message: string): string {
  const line = message.split('\n').find((l) => l.trim() !== '') ?? message;
  return line.trim().replace(/:$/, '');
}

export const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

/**
 * The error a request's failure is reported as: lspq's own as it is; a
 * server busy with a change (ServerCancelled, ContentModified) asks for the
 * request again; a method it lacks is `unsupported`; anything else is the
 * server's failure, its first line shown (a server's error can carry its
 * whole stack, as tsserver's does) and the rest logged.
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
        `${id} kept cancelling ${method} (${firstLine(err.message)}); retry, or see 'lspq daemon logs'`,
      ),
    );
  }
  if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) {
    return new LspqError('unsupported', `${id} does not support ${method}; try another server with --server`);
  }
  const message = messageOf(err);
  if (message.includes('\n')) log(`${id} failed ${method}: ${message}`);
  const reason = firstLine(message);
  return new LspqError('server_failed', `${id} failed ${method}: ${reason}; see 'lspq daemon logs'`, reason);
}
