/**
 * A language server that advertises everything lspq asks and answers every
 * question with a result of the wrong shape, for the client's answer checks
 * (src/lsp/requests.ts, src/lsp/message-shapes.ts). Before each answer, and
 * when a file is opened or changed, it also sends malformed notifications
 * about that very file (publishDiagnostics whose list is a string,
 * $/progress with no value, a log message that is a number, a
 * workspace/applyEdit with no edit): lspq must drop them, not crash on them
 * nor take them as the file's diagnostics. The fakes malformed-*.ts run it
 * with one variation each.
 */
import {
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  createMessageConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  ImplementationRequest,
  InitializeRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TypeDefinitionRequest,
  WorkspaceSymbolRequest,
  type InitializeResult,
} from 'vscode-languageserver-protocol/node';

export function serveMalformed(options: {
  /** Also a frame whose body is not JSON before each answer. */
  garbageFrame?: boolean;
  /** prepareRename answered well, so that rename's own (malformed) edit is read. */
  prepareOk?: boolean;
}): void {
  const { garbageFrame = false, prepareOk = false } = options;
  const connection = createMessageConnection(
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(process.stdout),
  );

  const initialized: InitializeResult = {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Full,
      definitionProvider: true,
      typeDefinitionProvider: true,
      implementationProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      callHierarchyProvider: true,
      codeActionProvider: true,
      documentFormattingProvider: true,
      documentRangeFormattingProvider: true,
      renameProvider: { prepareProvider: true },
    },
  };

  /** Malformed notifications about `uri` (the file asked about, so a waiter for its diagnostics sees them). */
  function noise(uri = 'file:///x'): void {
    void connection.sendNotification('textDocument/publishDiagnostics', { uri, diagnostics: 'x' });
    void connection.sendNotification('$/progress', { token: 1 });
    void connection.sendNotification('window/logMessage', { type: 1, message: 42 });
    void connection.sendRequest('workspace/applyEdit', { label: 'no edit' }).catch(() => undefined);
    // A header the reader accepts around a body it cannot parse.
    if (garbageFrame) process.stdout.write('Content-Length: 5\r\n\r\n{{{{{');
  }

  /** A handler that sends the noise, then `result`, whatever the question. */
  const wrong =
    (result: unknown) =>
    (params: { textDocument?: { uri: string } } | undefined): unknown => {
      noise(params?.textDocument?.uri);
      return result;
    };

  connection.onRequest(InitializeRequest.type, () => initialized);
  connection.onNotification(DidOpenTextDocumentNotification.type, (p) => noise(p.textDocument.uri));
  connection.onNotification(DidChangeTextDocumentNotification.type, (p) => noise(p.textDocument.uri));
  connection.onRequest(DefinitionRequest.method, wrong({ uri: 5 }));
  connection.onRequest(TypeDefinitionRequest.method, wrong([{ uri: 'file:///x' }]));
  connection.onRequest(ImplementationRequest.method, wrong(7));
  connection.onRequest(ReferencesRequest.method, wrong('nonsense'));
  connection.onRequest(HoverRequest.method, wrong({ contents: 42 }));
  connection.onRequest(DocumentSymbolRequest.method, wrong([{ name: 1 }]));
  connection.onRequest(WorkspaceSymbolRequest.method, wrong([{}]));
  connection.onRequest(CallHierarchyPrepareRequest.method, wrong([{ name: 'x' }]));
  connection.onRequest(CodeActionRequest.method, wrong([{ title: 3 }]));
  connection.onRequest(DocumentFormattingRequest.method, wrong([{ range: null }]));
  connection.onRequest(DocumentRangeFormattingRequest.method, wrong([{ range: null }]));
  connection.onRequest(PrepareRenameRequest.method, wrong(prepareOk ? { defaultBehavior: true } : { start: 1 }));
  connection.onRequest(RenameRequest.method, wrong({ changes: { 'file:///x': 'no' } }));
  connection.onRequest(ShutdownRequest.type, () => undefined);
  connection.onNotification(ExitNotification.type, () => process.exit(0));
  connection.onClose(() => process.exit(0));
  connection.listen();
}
