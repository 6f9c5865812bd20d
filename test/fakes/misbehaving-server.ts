/**
 * A tiny language server that misbehaves on purpose, for the daemon's crash,
 * cancel and timeout tests. Real framing (vscode-languageserver-protocol);
 * the behaviour comes from its arguments:
 *   --crash-on-definition   writes "boom" to stderr and exits 3 on textDocument/definition
 *   --hang-on-definition    never answers textDocument/definition; on $/cancelRequest
 *                           writes the file named by --cancel-marker
 *   --touch-on-rename       another program edits the file while the rename is computed
 *   --rendezvous            a definition is answered only once a second one is waiting:
 *                           two questions asked one after the other never get an answer
 * Anything else about definitions answers line 1 of the file itself. A
 * rename replaces the file's first word, and that of b.fake beside it. Its
 * one code action is a bare command: run, it sends the edit back to the
 * client as workspace/applyEdit (replacing the first word with "fixed")
 * and records the client's answer in applied.log beside the file.
 *   --slow-command MS       the command waits MS before sending its edit (two at once overlap)
 *   --grow-on-fix           the command's edit inserts a line "fixed" at the top instead,
 *                           so every apply changes the file
 *   --fix-every-file        the command fixes every .fake file beside the file, in two
 *                           workspace/applyEdit requests (half the files each), and keeps no log
 */
import { appendFileSync, existsSync } from 'node:fs';
import {
  type CancellationToken,
  createMessageConnection,
  ApplyWorkspaceEditRequest,
  CodeActionRequest,
  DefinitionRequest,
  DocumentDiagnosticRequest,
  ExecuteCommandRequest,
  InitializeRequest,
  RenameRequest,
  ShutdownRequest,
  ExitNotification,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver-protocol/node';

const args = process.argv.slice(2);
const waiting: (() => void)[] = [];
const marker = args[args.indexOf('--cancel-marker') + 1];
let unreadableSent = false;
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);

const initialized: InitializeResult = {
  capabilities: {
    definitionProvider: true,
    renameProvider: true,
    codeActionProvider: true,
    executeCommandProvider: { commands: ['fake.fix'] },
    // Diagnostics pulled (always none): a code action's question need not wait out a push server's quiet window.
    diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
    textDocumentSync: TextDocumentSyncKind.Full,
  },
};
connection.onRequest(InitializeRequest.type, () => initialized);
connection.onRequest(DefinitionRequest.type, (params, token: CancellationToken) => {
  if (args.includes('--crash-on-definition')) {
    process.stderr.write('boom: the fake server crashed on purpose\n');
    process.exit(3);
  }
  if (args.includes('--rendezvous')) {
    return new Promise((resolve) => {
      const answer = () =>
        resolve({
          uri: params.textDocument.uri,
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        });
      waiting.push(answer);
      // A cancelled question no longer waits for its pair.
      token.onCancellationRequested(() => {
        const at = waiting.indexOf(answer);
        if (at >= 0) waiting.splice(at, 1);
      });
      if (waiting.length >= 2) for (const go of waiting.splice(0)) go();
    });
  }
  // A frame whose header names no length, then its body: a reader that takes it on loses what follows.
  if (args.includes('--unreadable-frame-on-definition') && !unreadableSent) {
    unreadableSent = true;
    process.stdout.write('Content-Lenght: 2\r\n\r\n{}');
  }
  if (args.includes('--hang-on-definition')) {
    return new Promise(() => {
      token.onCancellationRequested(() => {
        if (marker) appendFileSync(marker, 'cancelled\n');
      });
    });
  }
  return { uri: params.textDocument.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
});
connection.onRequest(RenameRequest.type, (params) => {
  const path = decodeURIComponent(new URL(params.textDocument.uri).pathname);
  if (args.includes('--touch-on-rename')) appendFileSync(path, 'changed by another program\n');
  const word = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, newText: params.newName };
  const other = path.replace(/[^/]+$/, 'b.fake');
  return {
    changes: { [params.textDocument.uri]: [word], ...(existsSync(other) ? { [`file://${other}`]: [word] } : {}) },
  };
});
connection.onRequest(CodeActionRequest.type, (params) => [
  { title: 'Fix it by command', command: 'fake.fix', arguments: [params.textDocument.uri] },
]);
/** The first word of each of `uris` replaced with "fixed". */
const fixFirstWords = (uris: string[]) => ({
  changes: Object.fromEntries(
    uris.map((u) => [
      u,
      [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, newText: 'fixed' }],
    ]),
  ),
});

connection.onRequest(ExecuteCommandRequest.type, async (params) => {
  const uri = String(params.arguments?.[0]);
  if (args.includes('--fix-every-file')) {
    const dir = decodeURIComponent(new URL(uri).pathname).replace(/[^/]+$/, '');
    const { readdirSync } = await import('node:fs');
    const uris = readdirSync(dir)
      .filter((f) => f.endsWith('.fake'))
      .sort()
      .map((f) => `file://${dir}${f}`);
    const half = Math.ceil(uris.length / 2);
    await connection.sendRequest(ApplyWorkspaceEditRequest.type, { edit: fixFirstWords(uris.slice(0, half)) });
    await connection.sendRequest(ApplyWorkspaceEditRequest.type, { edit: fixFirstWords(uris.slice(half)) });
    return null;
  }
  const slow = args.indexOf('--slow-command');
  if (slow >= 0) await new Promise((r) => setTimeout(r, Number(args[slow + 1])));
  const grow = args.includes('--grow-on-fix');
  const end = grow ? 0 : 5;
  const edit = {
    changes: {
      [uri]: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: end } },
          newText: grow ? 'fixed\n' : 'fixed',
        },
      ],
    },
  };
  const answer = await connection.sendRequest(ApplyWorkspaceEditRequest.type, { edit });
  const path = decodeURIComponent(new URL(uri).pathname);
  appendFileSync(path.replace(/[^/]+$/, 'applied.log'), `${JSON.stringify(answer)}\n`);
  return null;
});
connection.onRequest(DocumentDiagnosticRequest.type, () => ({ kind: 'full' as const, items: [] }));
connection.onRequest(ShutdownRequest.type, () => undefined);
connection.onNotification(ExitNotification.type, () => process.exit(0));
connection.onClose(() => process.exit(0));
connection.listen();
