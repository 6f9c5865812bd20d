/**
 * The well-behaved part every fake language server shares (real framing,
 * vscode-languageserver-protocol): it answers a definition with line 1 of
 * the file itself, renames the file's first word (and b.fake's beside it),
 * and offers one code action, a bare command that sends its edit back as
 * workspace/applyEdit (the first word replaced with "fixed") and records
 * the client's answer in applied.log beside the file. Each fake in this
 * folder is this server with one misbehaviour, named for it.
 */
import { appendFileSync, existsSync } from 'node:fs';
import {
  ApplyWorkspaceEditRequest,
  type CancellationToken,
  CodeActionRequest,
  createMessageConnection,
  DefinitionRequest,
  type DefinitionParams,
  DocumentDiagnosticRequest,
  ExecuteCommandRequest,
  ExitNotification,
  InitializeRequest,
  type InitializeResult,
  type Location,
  LSPErrorCodes,
  type MessageConnection,
  RenameRequest,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  WillRenameFilesRequest,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';

/** Where a cancelled request is recorded (`--cancel-marker PATH`, which every fake project passes). */
export const cancelMarker = process.argv[process.argv.indexOf('--cancel-marker') + 1];

/** What a fake does differently from the well-behaved server. */
export interface Misbehaviour {
  /** Answers a definition instead of the well-behaved answer (`answer()` gives that). */
  definition?: (
    params: DefinitionParams,
    token: CancellationToken,
    answer: () => Location,
  ) => Location | Promise<Location>;
  /** Runs before a rename is computed (another program edits the file). */
  beforeRename?: (path: string) => void;
  /** The code action's command instead of the well-behaved one. */
  command?: (uri: string, connection: MessageConnection) => Promise<void>;
  /** Pulled diagnostics never answered (a check that does not end in time). */
  diagnosticsHang?: boolean;
  /** A rename, the code action's command and a move (workspace/willRenameFiles, then offered) refused with this message. */
  refusal?: string;
  /** Runs before pulled diagnostics are answered (another program edits a file meanwhile). */
  beforeDiagnostics?: (path: string) => void;
}

const path = (uri: string) => decodeURIComponent(new URL(uri).pathname);

/** The first word of each of `uris` replaced with `newText` (or, to grow the file, a line inserted). */
export function fixFirstWords(uris: string[], grow = false): WorkspaceEdit {
  const end = grow ? 0 : 5;
  const edit = {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: end } },
    newText: grow ? 'fixed\n' : 'fixed',
  };
  return { changes: Object.fromEntries(uris.map((u) => [u, [edit]])) };
}

/** The well-behaved command: its edit sent back, and the client's answer recorded. */
export async function fixByCommand(uri: string, connection: MessageConnection, grow = false): Promise<void> {
  const answer = await connection.sendRequest(ApplyWorkspaceEditRequest.type, { edit: fixFirstWords([uri], grow) });
  appendFileSync(path(uri).replace(/[^/]+$/, 'applied.log'), `${JSON.stringify(answer)}\n`);
}

export function serve(m: Misbehaviour = {}): void {
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
      ...(m.refusal
        ? { workspace: { fileOperations: { willRename: { filters: [{ pattern: { glob: '**/*.fake' } }] } } } }
        : {}),
    },
  };
  const refuse = (): never => {
    throw new ResponseError(LSPErrorCodes.RequestFailed, m.refusal ?? '');
  };
  connection.onRequest(InitializeRequest.type, () => initialized);
  connection.onRequest(WillRenameFilesRequest.type, () => (m.refusal ? refuse() : null));
  connection.onRequest(DefinitionRequest.type, (params, token) => {
    const answer = (): Location => ({
      uri: params.textDocument.uri,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    });
    return m.definition ? m.definition(params, token, answer) : answer();
  });
  connection.onRequest(RenameRequest.type, (params) => {
    if (m.refusal) refuse();
    const file = path(params.textDocument.uri);
    m.beforeRename?.(file);
    const word = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
      newText: params.newName,
    };
    const other = file.replace(/[^/]+$/, 'b.fake');
    return {
      changes: { [params.textDocument.uri]: [word], ...(existsSync(other) ? { [`file://${other}`]: [word] } : {}) },
    };
  });
  connection.onRequest(CodeActionRequest.type, (params) => [
    { title: 'Fix it by command', command: 'fake.fix', arguments: [params.textDocument.uri] },
  ]);
  connection.onRequest(ExecuteCommandRequest.type, async (params) => {
    if (m.refusal) refuse();
    const uri = String(params.arguments?.[0]);
    await (m.command ? m.command(uri, connection) : fixByCommand(uri, connection));
    return null;
  });
  connection.onRequest(DocumentDiagnosticRequest.type, (params) => {
    m.beforeDiagnostics?.(path(params.textDocument.uri));
    return m.diagnosticsHang ? new Promise<never>(() => {}) : { kind: 'full' as const, items: [] };
  });
  connection.onRequest(ShutdownRequest.type, () => undefined);
  connection.onNotification(ExitNotification.type, () => process.exit(0));
  connection.onClose(() => process.exit(0));
  connection.listen();
}
