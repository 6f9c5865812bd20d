/**
 * A fake server that answers what the test gave it: `--canned PATH` names a
 * JSON file of `{ capabilities, answers }`, each answer by LSP method (any
 * other request answered null), and every request it was asked is appended
 * to `requests.log` beside that file, for the test to check what the
 * handler sent. For handler-level tests (test/handlers/), which need no
 * real language server.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  createMessageConnection,
  ExitNotification,
  InitializeRequest,
  type InitializeResult,
  type ServerCapabilities,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
} from 'vscode-languageserver-protocol/node';

/** What a test cans: the server's capabilities and its answer to each method. */
export interface Canned {
  capabilities: ServerCapabilities;
  answers: Record<string, unknown>;
}

const file = process.argv[process.argv.indexOf('--canned') + 1] ?? '';
const canned: Canned = JSON.parse(readFileSync(file, 'utf8'));
const log = join(dirname(file), 'requests.log');

const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
const initialized: InitializeResult = {
  capabilities: { textDocumentSync: TextDocumentSyncKind.Full, ...canned.capabilities },
};
connection.onRequest(InitializeRequest.type, () => initialized);
connection.onRequest(ShutdownRequest.type, () => undefined);
connection.onRequest((method: string, params: unknown) => {
  appendFileSync(log, `${JSON.stringify({ method, params })}\n`);
  return canned.answers[method] ?? null;
});
connection.onNotification(ExitNotification.type, () => process.exit(0));
connection.onClose(() => process.exit(0));
connection.listen();
