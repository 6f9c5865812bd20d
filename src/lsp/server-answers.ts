/**
 * What a server sends unasked, answered and recorded: its requests
 * (configuration, registrations, a page to show, an edit to apply) and its
 * notifications (progress, status, diagnostics, log lines). Each is run
 * only on a message of the shape lspq expects: a malformed one is logged
 * and dropped (a request gets an error answer), and nothing the server
 * sends can throw here.
 */
import {
  ApplyWorkspaceEditRequest,
  type ApplyWorkspaceEditResult,
  CodeLensRefreshRequest,
  ConfigurationRequest,
  type Diagnostic,
  DiagnosticRefreshRequest,
  ErrorCodes,
  InlayHintRefreshRequest,
  LogMessageNotification,
  type MessageConnection,
  MessageType,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ResponseError,
  SemanticTokensRefreshRequest,
  ShowDocumentRequest,
  ShowMessageRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  type WorkspaceEdit,
  WorkspaceFoldersRequest,
} from 'vscode-languageserver-protocol/node';
import * as z from 'zod/mini';
import type { ServerState } from './server-state';
import type { ServerSpec } from './servers/spec';
import { misfit, NOTIFICATION_SHAPES, WorkspaceEditShape } from './message-shapes';
import { pathToUri } from './uri';
import { canonicalUri } from './uri';

/** What the client lends the answers: its settings, and the hooks a running code action sets. */
export interface Answering {
  spec: ServerSpec;
  root: string;
  log: (line: string) => void;
  /** The answer to one workspace/configuration item. */
  setting(section: string | undefined): unknown;
  /** An edit the server asks to apply: answered while a code action's command runs, refused otherwise. */
  applyEdit(edit: WorkspaceEdit): Promise<ApplyWorkspaceEditResult> | ApplyWorkspaceEditResult;
  /** A page the server asks to show; whether it was taken. */
  showDocument(uri: string): boolean;
  /** The output cannot be read any more: the server is stopped. */
  unreadable(why: string): void;
  /** A process that answers for it (tsserver under typescript-language-server) died: the server is stopped. */
  workerDied(why: string): void;
  /** It said it could not load the project (its `failedProjectLog`): the server is stopped. */
  projectFailed(why: string): void;
  /** A tsserver request it asks the client to make for it (vue-language-server): tsserver's answer body, or null. */
  relayTsserver(command: string, args: unknown): Promise<unknown>;
}

/** A failure's reason: the line after the one that says it failed, else that line. Pure. */
export function reasonOf(message: string): string {
  const lines = message.split('\n').map((l) => l.trim());
  return lines.find((l, i) => i > 0 && l) ?? lines[0] ?? '';
}

/** vue-language-server's `tsserver/request`: [id, command, args], as the one parameter or as the whole list. Pure. */
export function tsserverRequestOf(params: unknown): { id: number; command: string; args: unknown } | undefined {
  const tuple = Array.isArray(params) && Array.isArray(params[0]) ? params[0] : params;
  if (!Array.isArray(tuple) || typeof tuple[0] !== 'number' || typeof tuple[1] !== 'string') return undefined;
  return { id: tuple[0], command: tuple[1], args: tuple[2] };
}

/** What V8 writes as a process runs out of its heap. */
const OUT_OF_MEMORY = /heap out of memory|Fatal javascript OOM|Reached heap limit/;

export function answerServer(c: MessageConnection, state: ServerState, a: Answering): void {
  let workerOutOfMemory = false;
  const shapes = NOTIFICATION_SHAPES;
  const checked =
    <T>(what: string, shape: z.ZodMiniType<T>, handle: (params: T) => unknown) =>
    (params: unknown): unknown => {
      const wrong = misfit(shape, params);
      if (wrong === undefined) return handle(params as T);
      a.log(`${a.spec.id} sent a malformed ${what} (${wrong}); ignored`);
      return new ResponseError(ErrorCodes.InvalidParams, `malformed ${what}: ${wrong}`);
    };
  const heard =
    <T>(what: string, shape: z.ZodMiniType<T>, handle: (params: T) => void) =>
    (params: unknown): void => {
      checked(what, shape, handle)(params);
    };
  c.onRequest(
    ConfigurationRequest.method,
    checked('workspace/configuration', shapes.configuration, (params) =>
      params.items.map((item) => a.setting(item.section)),
    ),
  );
  c.onRequest(
    RegistrationRequest.method,
    checked('client/registerCapability', shapes.registration, (params) => {
      for (const r of params.registrations) state.registrations.set(r.id, r);
      state.notify();
    }),
  );
  c.onRequest(
    UnregistrationRequest.method,
    checked('client/unregisterCapability', shapes.unregistration, (params) => {
      for (const u of params.unregisterations) state.registrations.delete(u.id);
    }),
  );
  c.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  c.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: pathToUri(a.root), name: a.root }]);
  c.onRequest(ShowMessageRequest.type, () => null);
  // A command may ask to show a page (gopls's "Browse documentation"): lspq prints its address.
  c.onRequest(
    ShowDocumentRequest.method,
    checked('window/showDocument', z.looseObject({ uri: z.string() }), (params) => ({
      success: a.showDocument(params.uri),
    })),
  );
  c.onRequest(
    ApplyWorkspaceEditRequest.method,
    checked('workspace/applyEdit', z.looseObject({ edit: WorkspaceEditShape }), (params) =>
      // The shape checks every field planning the edit reads; LSP's type also names fields it never reads.
      a.applyEdit(params.edit as WorkspaceEdit),
    ),
  );
  c.onRequest(DiagnosticRefreshRequest.type, () => {
    state.refreshRequested++;
    state.notify();
  });
  c.onRequest(SemanticTokensRefreshRequest.type, () => undefined);
  c.onRequest(InlayHintRefreshRequest.type, () => undefined);
  c.onRequest(CodeLensRefreshRequest.type, () => undefined);
  c.onNotification(
    '$/progress',
    heard('$/progress', shapes.progress, (params) => state.progressed(params.token, params.value)),
  );
  // rust-analyzer's readiness signal (experimental.serverStatusNotification).
  c.onNotification(
    'experimental/serverStatus',
    heard('experimental/serverStatus', shapes.serverStatus, (status) => state.status(status.quiescent)),
  );
  c.onNotification(
    PublishDiagnosticsNotification.method,
    heard('textDocument/publishDiagnostics', shapes.publishDiagnostics, (params) =>
      // Checked for the fields lspq reads (range, message, severity, code, source); the rest passes as sent.
      state.published(canonicalUri(params.uri), params.version ?? undefined, params.diagnostics as Diagnostic[]),
    ),
  );
  // Errors and warnings only: servers chatter at info level on every change.
  c.onNotification(
    LogMessageNotification.method,
    heard('window/logMessage', shapes.logMessage, (params) => {
      if (params.type <= MessageType.Warning) a.log(`${a.spec.id}: ${params.message.trim()}`);
      if (a.spec.readyLog?.test(params.message)) state.readyLog();
      const unserved = a.spec.unservedLog?.exec(params.message)?.[1];
      if (unserved) state.unservedFile(unserved);
      if (params.type === MessageType.Error) state.loggedError(params.message, a.spec.failureLog);
      if (a.spec.failedProjectLog?.test(params.message)) a.projectFailed(reasonOf(params.message));
      // A worker out of its heap says so before its exit: the exit is then said as what it is.
      if (a.spec.worker && OUT_OF_MEMORY.test(params.message)) workerOutOfMemory = true;
      const died = a.spec.worker?.exitLog.exec(params.message);
      if (died) a.workerDied(workerOutOfMemory ? `out of its memory: ${died[0]}` : died[0]);
    }),
  );
  if (a.spec.readyNotification) c.onNotification(a.spec.readyNotification, () => state.readyLog());
  // Vue's hybrid mode: its TypeScript questions go through the client to a TypeScript server, and it waits for
  // each answer (every feature hangs without one): always answered, null when no TypeScript server can.
  c.onNotification('tsserver/request', (...params: unknown[]) => {
    const request = tsserverRequestOf(params);
    if (!request) return a.log(`${a.spec.id} sent a malformed tsserver/request; ignored`);
    void a
      .relayTsserver(request.command, request.args)
      .catch(() => null)
      .then((body) => c.sendNotification('tsserver/response', [request.id, body ?? null]))
      .catch(() => {});
  });
  c.onError(([err]) => {
    a.log(`${a.spec.id} connection error: ${err.message}`);
    // A frame whose header cannot be read leaves the stream out of step: later answers may be lost
    // in it, and every question would wait out its --timeout. The server is stopped instead.
    if (/Content-Length|Reader received error/.test(err.message)) a.unreadable(err.message.split('\n', 1)[0] ?? '');
  });
}
