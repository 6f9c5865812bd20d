/** LSPQ_TRACE_LSP: every message to and from a server in the daemon's log, for diagnosing a server's behaviour. */
import { Trace, type MessageConnection } from 'vscode-languageserver-protocol';

/** How much of a message's body a trace line holds. */
const TRACE_DATA_CHARS = 300;

export function traceMessages(connection: MessageConnection, id: string, log: (line: string) => void): void {
  const trace = (message: string, data?: string) =>
    log(`${id} trace: ${message} ${(data ?? '').replace(/\s+/g, ' ').slice(0, TRACE_DATA_CHARS)}`);
  void connection.trace(Trace.Verbose, { log: trace });
}
