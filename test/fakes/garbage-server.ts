/**
 * A language server whose every answer has the wrong shape, for the
 * client's checks: each request lspq makes gets a result it must refuse,
 * and before answering it sends malformed notifications and requests
 * (publishDiagnostics with no list, $/progress with no value, a log message
 * that is a number, a workspace/applyEdit with no edit). With
 * --garbage-frame it also writes a frame whose body is not JSON.
 */
import {
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  createMessageConnection,
  DefinitionRequest,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  ImplementationRequest,
  type InitializeResult,
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
} from 'vscode-languageserver-protocol/node';

const garbageFrame = process.argv.includes('--garbage-frame');
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

/** Malformed messages of every unasked kind, then a result of the wrong shape. */
function garbage(result: unknown): () => unknown {
  return () => {
    void connection.sendNotification('textDocument/publishDiagnostics', { uri: 'file:///x', diagnostics: 'x' });
    void connection.sendNotification('$/progress', { token: 1 });
    void connection.sendNotification('window/logMessage', { type: 1, message: 42 });
    void connection.sendRequest('workspace/applyEdit', { label: 'no edit' }).catch(() => undefined);
    if (garbageFrame) process.stdout.write('Content-Length: 5\r\n\r\n{{{{{');
    return result;
  };
}

connection.onRequest(InitializeRequest.type, () => initialized);
connection.onRequest(DefinitionRequest.method, garbage({ uri: 5 }));
connection.onRequest(TypeDefinitionRequest.method, garbage([{ uri: 'file:///x' }]));
connection.onRequest(ImplementationRequest.method, garbage('nowhere'));
connection.onRequest(ReferencesRequest.method, garbage('nonsense'));
connection.onRequest(HoverRequest.method, garbage({ contents: 42 }));
connection.onRequest(DocumentSymbolRequest.method, garbage([{ name: 1 }]));
connection.onRequest(WorkspaceSymbolRequest.method, garbage([{}]));
connection.onRequest(CallHierarchyPrepareRequest.method, garbage([{ name: 'x' }]));
connection.onRequest(CodeActionRequest.method, garbage([{ title: 3 }]));
connection.onRequest(DocumentFormattingRequest.method, garbage([{ range: null }]));
connection.onRequest(DocumentRangeFormattingRequest.method, garbage([{ range: null }]));
connection.onRequest(PrepareRenameRequest.method, garbage({ start: 1 }));
connection.onRequest(RenameRequest.method, garbage({ changes: { 'file:///x': 'no' } }));
connection.onRequest(ShutdownRequest.type, () => undefined);
connection.onNotification(ExitNotification.type, () => process.exit(0));
connection.onClose(() => process.exit(0));
connection.listen();
