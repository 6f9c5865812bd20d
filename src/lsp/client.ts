/**
 * One running language server: process, JSON-RPC connection, the answers to
 * what the server asks, progress and readiness, and a bounded request call.
 * The framing is vscode-languageserver-protocol's; nothing here prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApplyWorkspaceEditRequest,
  CancellationTokenSource,
  CodeLensRefreshRequest,
  DidChangeConfigurationNotification,
  ConfigurationRequest,
  createMessageConnection,
  DiagnosticRefreshRequest,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  InlayHintRefreshRequest,
  LogMessageNotification,
  MessageType,
  NotificationType,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  SemanticTokensRefreshRequest,
  ShowDocumentRequest,
  ShowMessageRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  Trace,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  type ApplyWorkspaceEditResult,
  type Diagnostic,
  type FormattingOptions,
  type WorkspaceEdit,
  type MessageConnection,
  type ProgressToken,
  type Registration,
  type RequestType,
  type RequestType0,
  type ServerCapabilities,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import * as z from 'zod/mini';
import { LspqError } from '../errors';
import { misfit, NOTIFICATION_SHAPES, RESULT_SHAPES, WorkspaceEditShape } from './result-shapes';
import { clientCapabilities } from './capabilities';
import { negotiatedEncoding, type PositionEncoding } from './position';
import type { ServerSpec } from './servers/registry';
import { processRuns } from '../protocol/process';
import { pathToUri } from './uri';
import { mergeSettings, sameStyle, styleSections } from './style-settings';

export const INITIALIZE_TIMEOUT_MS = 60_000;
export const SHUTDOWN_TIMEOUT_MS = 2_000;
export const KILL_GRACE_MS = 1_000;
const STDERR_TAIL_BYTES = 4_096;
const STDERR_DRAIN_MS = 200;
const TRACE_DATA_CHARS = 300;

type RequestParamOf<P> = P extends null ? P | undefined : P;
type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;
type ProgressParams = { token: ProgressToken; value: ProgressValue };
const ProgressNotification = new NotificationType<{ token: ProgressToken; value: ProgressValue }>('$/progress');
/** rust-analyzer's readiness signal (experimental.serverStatusNotification). */
const ServerStatusNotification = new NotificationType<{ health: string; quiescent: boolean; message?: string }>(
  'experimental/serverStatus',
);

/** First and longest pause before asking again a request the server cancelled because it was busy. */
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 800;

/** A request the server asked to be sent again; what to report if time runs out first. */
class RetryableError extends Error {
  constructor(readonly failure: LspqError) {
    super(failure.message);
  }
}

/** A message's first non-empty line, without a trailing colon. */
export function firstLine(message: string): string {
  const line = message.split('\n').find((l) => l.trim() !== '') ?? message;
  return line.trim().replace(/:$/, '');
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

export interface PublishedDiagnostics {
  version: number | undefined;
  diagnostics: Diagnostic[];
  /** Increments with every publish, so a waiter can tell a new wave from an old one. */
  sequence: number;
}

export interface StartOptions {
  spec: ServerSpec;
  binary: string;
  root: string;
  env: Record<string, string>;
  log?: (line: string) => void;
  /** Aborted (the daemon stops): a server still starting is killed at once, not awaited. */
  signal?: AbortSignal;
}

export interface RequestOptions {
  timeoutMs: number;
  /** The whole time the user allowed (--timeout), named when it runs out. */
  budgetMs?: number;
  signal?: AbortSignal;
  /** Told, after a second and then each second, what the request is waiting for (a person at a terminal). */
  progress?: (text: string) => void;
}

/** How long a request runs before a person at a terminal is told what it waits for, and then how often. */
export const SLOW_NOTICE_MS = 1_000;

export class LspClient {
  readonly spec: ServerSpec;
  readonly root: string;
  readonly startedAt = Date.now();
  capabilities: ServerCapabilities = {};
  /** Its name and version, as its initialize answer gave them. */
  serverVersion: string | undefined;
  /** Set while a code action's command runs (actions --apply): how a workspace/applyEdit from the server is answered. */
  private onApplyEdit: ((edit: WorkspaceEdit) => Promise<ApplyWorkspaceEditResult>) | undefined;
  /** Set with it: where a window/showDocument from the command goes. */
  private onShowDocument: ((uri: string) => void) | undefined;
  encoding: PositionEncoding = 'utf-16';
  /** The settings it is answered with: its spec's, and the project's interpreter. */
  private readonly ownSettings: Record<string, unknown>;
  /** Why its output could not be read, once it could not: it was stopped for it. */
  private brokenFrame: string | undefined;
  /** The indentation last told to a server whose spec has `style`. */
  private style: FormattingOptions | undefined;
  requestsAnswered = 0;
  /** Set once the process has exited; every later call fails fast. */
  exit: { code: number | null; signal: string | null } | undefined;
  readonly registrations = new Map<string, Registration>();
  readonly diagnostics = new Map<string, PublishedDiagnostics>();
  private readonly activeProgress = new Map<ProgressToken, string>();
  private quiescent = false;
  private readyLogSeen = false;
  /** Counts workspace/diagnostic/refresh requests: pulled results older than the last one are stale. */
  refreshRequested = 0;
  private publishSequence = 0;
  private stderrTail = '';
  private readonly listeners = new Set<() => void>();
  /**
   * Who waits for the process to die: each request in flight, removed
   * when it settles. (A request raced against one long-lived promise of the
   * exit instead: each race left a reaction on it, holding the answer, for
   * as long as the server lived; 1.8 million objects after 9,000 questions.)
   */
  private readonly onExit = new Set<(err: LspqError) => void>();
  private readonly connection: MessageConnection;
  private readonly log: (line: string) => void;

  private constructor(
    private readonly proc: ChildProcess,
    options: StartOptions,
  ) {
    this.spec = options.spec;
    this.root = options.root;
    this.indexes = this.spec.indexedBy !== undefined && existsSync(join(this.root, this.spec.indexedBy));
    const python = options.env.VIRTUAL_ENV;
    // The project's interpreter, told where the server reads it, as an editor's Python extension does.
    this.ownSettings =
      this.spec.interpreterSetting && python
        ? mergeSettings(this.spec.settings ?? {}, { python: { pythonPath: join(python, 'bin', 'python') } })
        : (this.spec.settings ?? {});
    const log = options.log ?? (() => {});
    this.log = log;
    const stderrDone = new Promise<void>((resolve) => proc.stderr?.once('end', resolve) ?? resolve());
    proc.once('exit', (code, signal) => {
      this.exit = { code, signal };
      log(`${this.spec.id} (${this.root}) exited code=${code} signal=${signal}`);
      // Its last words on stderr are the useful part of the error; give them a moment to arrive.
      void Promise.race([stderrDone, Bun.sleep(STDERR_DRAIN_MS)]).then(() => {
        const err = this.crashError();
        for (const fail of [...this.onExit]) fail(err);
        this.onExit.clear();
        this.notify();
      });
    });
    proc.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(proc.stdout!),
      new StreamMessageWriter(proc.stdin!),
    );
    this.answerServerRequests(log);
    // LSPQ_TRACE_LSP=1 logs every message, for diagnosing a server's behaviour.
    if (options.env.LSPQ_TRACE_LSP) {
      const trace = (message: string, data?: string) =>
        log(`${this.spec.id} trace: ${message} ${(data ?? '').replace(/\s+/g, ' ').slice(0, TRACE_DATA_CHARS)}`);
      void this.connection.trace(Trace.Verbose, { log: trace });
    }
    this.connection.listen();
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /**
   * Alive and its process really runs: a server killed from outside is dead
   * (or a zombie) a moment before Bun reports its exit, and a question sent
   * to it then would fail instead of starting a fresh one.
   */
  get running(): boolean {
    return this.alive && (this.proc.pid === undefined || processRuns(this.proc.pid));
  }

  static async start(options: StartOptions): Promise<LspClient> {
    const { spec, binary, root, env } = options;
    let proc: ChildProcess;
    try {
      // Its own process group, so shutdown can kill helpers the server spawned.
      proc = spawn(binary, spec.args, {
        cwd: root,
        env: { ...env, ...spec.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (err) {
      throw new LspqError('server_failed', `could not start ${spec.id} (${binary}): ${(err as Error).message}`);
    }
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', (err) =>
        reject(
          new LspqError('server_failed', `could not start ${spec.id} (${binary}): ${err.message}; ${spec.install}`),
        ),
      );
    });
    const client = new LspClient(proc, options);
    const abort = () => void client.killGroup();
    options.signal?.addEventListener('abort', abort);
    try {
      await client.initialize();
    } catch (err) {
      await client.shutdown();
      throw err;
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    return client;
  }

  private async initialize(): Promise<void> {
    const rootUri = pathToUri(this.root);
    const result = await this.request(
      InitializeRequest.type,
      {
        processId: process.pid,
        clientInfo: { name: 'lspq', version: '0.1.0' },
        rootUri,
        rootPath: this.root,
        workspaceFolders: [{ uri: rootUri, name: this.root.slice(this.root.lastIndexOf('/') + 1) || '/' }],
        capabilities: clientCapabilities(),
        initializationOptions: this.spec.initializationOptions,
      },
      { timeoutMs: INITIALIZE_TIMEOUT_MS },
    );
    this.capabilities = result.capabilities;
    // A version, not a build's whole description (gopls sends its build info as JSON).
    const info = result.serverInfo;
    if (info?.version && /^v?\d+\.\d+[\w.+-]*$/.test(info.version)) this.serverVersion = `${info.name} ${info.version}`;
    this.encoding = negotiatedEncoding(result.capabilities.positionEncoding);
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /** A malformed answer is this question's failure, in one line; the log keeps what the server sent. */
  private checkAnswer(method: string, result: unknown): void {
    const shape = RESULT_SHAPES[method];
    const wrong = shape && misfit(shape, result);
    if (!wrong) return;
    const sent = JSON.stringify(result) ?? String(result);
    this.log(`${this.spec.id} sent a malformed ${method} answer (${wrong}): ${sent.slice(0, TRACE_DATA_CHARS)}`);
    throw new LspqError(
      'server_failed',
      `${this.spec.id} sent a malformed answer to ${method} (${wrong}); see 'lspq daemon logs'`,
    );
  }

  /**
   * A handler for what the server sends unasked, run only on a message of
   * the expected shape: a malformed one is logged and dropped (a request
   * gets an error answer), and nothing the server sends can throw here.
   */
  private checked<T>(
    what: string,
    shape: z.ZodMiniType<T>,
    handle: (params: T) => unknown,
  ): (params: unknown) => unknown {
    return (params) => {
      const wrong = misfit(shape, params);
      if (wrong === undefined) return handle(params as T);
      this.log(`${this.spec.id} sent a malformed ${what} (${wrong}); ignored`);
      return new ResponseError(ErrorCodes.InvalidParams, `malformed ${what}: ${wrong}`);
    };
  }

  /** The same check for a notification, which has no answer. */
  private heard<T>(what: string, shape: z.ZodMiniType<T>, handle: (params: T) => void): (params: unknown) => void {
    const run = this.checked(what, shape, handle);
    return (params) => {
      run(params);
    };
  }

  private answerServerRequests(log: (line: string) => void): void {
    const c = this.connection;
    const shapes = NOTIFICATION_SHAPES;
    c.onRequest(
      ConfigurationRequest.method,
      this.checked('workspace/configuration', shapes.configuration, (params) => {
        return params.items.map((item) => this.setting(item.section));
      }),
    );
    c.onRequest(
      RegistrationRequest.method,
      this.checked('client/registerCapability', shapes.registration, (params) => {
        for (const r of params.registrations) this.registrations.set(r.id, r as Registration);
        this.notify();
      }),
    );
    c.onRequest(
      UnregistrationRequest.method,
      this.checked('client/unregisterCapability', shapes.unregistration, (params) => {
        for (const u of params.unregisterations) this.registrations.delete(u.id);
      }),
    );
    c.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    c.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: pathToUri(this.root), name: this.root }]);
    c.onRequest(ShowMessageRequest.type, () => null);
    // A command may ask to show a page (gopls's "Browse documentation"): lspq prints its address.
    c.onRequest(
      ShowDocumentRequest.method,
      this.checked('window/showDocument', z.looseObject({ uri: z.string() }), (params) => {
        if (!this.onShowDocument) return { success: false };
        this.onShowDocument(params.uri);
        return { success: true };
      }),
    );
    // Edits arrive this way only for commands lspq runs; none are run yet.
    c.onRequest(
      ApplyWorkspaceEditRequest.method,
      this.checked('workspace/applyEdit', z.looseObject({ edit: WorkspaceEditShape }), (params) =>
        this.onApplyEdit
          ? this.onApplyEdit(params.edit as WorkspaceEdit)
          : { applied: false, failureReason: 'lspq applies a server edit only while it runs a code action' },
      ),
    );
    c.onRequest(DiagnosticRefreshRequest.type, () => {
      this.refreshRequested++;
      this.notify();
    });
    c.onRequest(SemanticTokensRefreshRequest.type, () => undefined);
    c.onRequest(InlayHintRefreshRequest.type, () => undefined);
    c.onRequest(CodeLensRefreshRequest.type, () => undefined);
    c.onNotification(
      ProgressNotification.method,
      this.heard('$/progress', shapes.progress, (params) => this.progressed(params as ProgressParams)),
    );
    c.onNotification(
      ServerStatusNotification.method,
      this.heard('experimental/serverStatus', shapes.serverStatus, (status) => {
        this.quiescent = status.quiescent;
        this.notify();
      }),
    );
    c.onNotification(
      PublishDiagnosticsNotification.method,
      this.heard('textDocument/publishDiagnostics', shapes.publishDiagnostics, (params) => {
        this.diagnostics.set(params.uri, {
          version: params.version ?? undefined,
          diagnostics: params.diagnostics as Diagnostic[],
          sequence: ++this.publishSequence,
        });
        this.notify();
      }),
    );
    // Errors and warnings only: servers chatter at info level on every change.
    c.onNotification(
      LogMessageNotification.method,
      this.heard('window/logMessage', shapes.logMessage, (params) => {
        if (params.type <= MessageType.Warning) log(`${this.spec.id}: ${params.message.trim()}`);
        if (this.spec.readyLog?.test(params.message)) {
          this.readyLogSeen = true;
          this.notify();
        }
      }),
    );
    c.onError(([err]) => {
      log(`${this.spec.id} connection error: ${err.message}`);
      // A frame whose header cannot be read leaves the stream out of step: later answers may be lost
      // in it, and every question would wait out its --timeout. The server is stopped instead.
      if (/Content-Length|Reader received error/.test(err.message)) void this.unreadable(err.message.split('\n')[0]!);
    });
  }

  /** How many pieces of work the server has begun reporting, by token: a waiter tells a new one from an old one. */
  progressBegun = 0;
  /** How many it has ended. */
  private progressEnded = 0;
  /** A server that indexes its project in the background (clangd with a compilation database) at this root. */
  private readonly indexes: boolean;

  /** The tokens of the work the server is reporting now. */
  get progressTokens(): ProgressToken[] {
    return [...this.activeProgress.keys()];
  }

  private progressed({ token, value }: ProgressParams): void {
    if (value.kind === 'begin') {
      this.activeProgress.set(token, value.title);
      this.progressBegun++;
    } else if (value.kind === 'end') {
      if (this.activeProgress.delete(token)) this.progressEnded++;
    } else if (this.activeProgress.has(token)) {
      // The title stays; the report's message ("12/40", a file name) replaces the last one.
      const title = this.activeProgress.get(token)!.split(': ')[0]!;
      this.activeProgress.set(token, value.message ? `${title}: ${value.message}` : title);
    }
    this.notify();
  }

  /** The answer to one workspace/configuration item: the section's settings, or null. */
  private setting(section: string | undefined): unknown {
    const own = this.ownSettings;
    const settings =
      this.spec.style && this.style ? mergeSettings(own, styleSections(this.spec.style, this.style)) : own;
    if (!section) return settings;
    if (section in settings) return settings[section];
    let node: unknown = settings;
    for (const part of section.split('.')) {
      if (typeof node !== 'object' || node === null || !(part in node)) return null;
      node = (node as Record<string, unknown>)[part];
    }
    return node ?? null;
  }

  /**
   * Tells a server that keeps its own format settings the indentation of
   * the file an edit is about to be computed for (a no-op for the others,
   * and when it has it already). Both TypeScript servers take the settings
   * the notification carries, in order, before the request sent after it.
   */
  async useStyle(options: FormattingOptions): Promise<void> {
    if (!this.spec.style || sameStyle(this.style, options)) return;
    this.style = options;
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: this.setting(undefined),
    });
  }

  /**
   * Runs `fn` (a workspace/executeCommand) with the edits the server sends
   * back meanwhile answered by `handler`. The question running it holds the
   * server alone, so the edits can be no one else's; a second one at once is
   * a fault of lspq's and refused rather than mixed up.
   */
  async applyingEdits<T>(
    handler: (edit: WorkspaceEdit) => Promise<ApplyWorkspaceEditResult>,
    show: (uri: string) => void,
    fn: () => Promise<T>,
  ): Promise<T> {
    if (this.onApplyEdit)
      throw new Error(`two commands of ${this.spec.id} ran at once; their edits cannot be told apart`);
    this.onApplyEdit = handler;
    this.onShowDocument = show;
    try {
      return await fn();
    } finally {
      this.onApplyEdit = undefined;
      this.onShowDocument = undefined;
    }
  }

  /** Wakes every waiter; they re-check their own condition. */
  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Resolves once `condition()` holds, re-checked on every server event; rejects at the deadline or on exit. */
  waitFor(
    condition: () => boolean,
    timeoutMs: number,
    what: string,
    signal?: AbortSignal,
    recheckMs?: number,
  ): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      // Conditions about quiet time need a clock tick as well as server events.
      const ticker = recheckMs ? setInterval(() => check(), recheckMs) : undefined;
      const done = (err?: Error) => {
        clearTimeout(timer);
        if (ticker) clearInterval(ticker);
        this.listeners.delete(check);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (!this.alive) done(this.crashError());
        else if (condition()) done();
      };
      const onAbort = () => done(new LspqError('timeout', 'cancelled'));
      const timer = setTimeout(
        () =>
          done(
            new LspqError('timeout', `${this.spec.id} did not finish ${what} in time; retry with a larger --timeout`),
          ),
        timeoutMs,
      );
      this.listeners.add(check);
      signal?.addEventListener('abort', onAbort);
    });
  }

  get busy(): boolean {
    return this.activeProgress.size > 0;
  }

  get progressTitles(): string[] {
    return [...this.activeProgress.values()];
  }

  /** True once the server says its answers are complete (docs/servers.md: readiness). */
  isReady(openUris: string[]): boolean {
    switch (this.spec.readiness) {
      case 'immediate':
        return true;
      case 'progress':
        return !this.busy;
      case 'indexed':
        return (
          !this.busy && openUris.every((uri) => this.diagnostics.has(uri)) && (!this.indexes || this.progressEnded > 0)
        );
      case 'quiescent':
        // A status of quiescent can come before the first load of the workspace has begun (under load, a
        // cold refs saw 197 of 450 references): ready once some loading it reported has ended as well.
        return this.quiescent && this.progressEnded > 0;
      case 'enumerated':
        return this.readyLogSeen;
    }
  }

  /**
   * Source files were created or deleted: a server that enumerates its
   * project (pyright) does so again on a timer of its own, and is not ready
   * until it says so once more.
   */
  expectEnumeration(): void {
    if (this.spec.readiness === 'enumerated') this.readyLogSeen = false;
  }

  /** Subscribes to server events (progress, diagnostics, registrations, exit). */
  onEvent(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async request<P, R, E>(type: RequestType<P, R, E>, params: P, options: RequestOptions): Promise<R>;
  async request<R, E>(type: RequestType0<R, E>, params: undefined, options: RequestOptions): Promise<R>;
  async request<P, R, E>(
    type: RequestType<P, R, E> | RequestType0<R, E>,
    params: P,
    options: RequestOptions,
  ): Promise<R> {
    // A server busy with a change answers ServerCancelled or ContentModified and
    // expects the request again (rust-analyzer's pull diagnostics while it analyses).
    const end = Date.now() + options.timeoutMs;
    for (let wait = RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      try {
        return await this.requestOnce(type, params, { ...options, timeoutMs: Math.max(1, end - Date.now()) });
      } catch (err) {
        if (!(err instanceof RetryableError) || Date.now() + wait >= end || options.signal?.aborted) {
          throw err instanceof RetryableError ? err.failure : err;
        }
        await Bun.sleep(wait);
      }
    }
  }

  private async requestOnce<P, R, E>(
    type: RequestType<P, R, E> | RequestType0<R, E>,
    params: P,
    options: RequestOptions,
  ): Promise<R> {
    if (!this.alive) throw this.crashError();
    const source = new CancellationTokenSource();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    let died: ((err: LspqError) => void) | undefined;
    const notices = this.slowNotices(type.method, options.progress);
    const bounded = new Promise<never>((_, reject) => {
      died = reject;
      this.onExit.add(died);
      timer = setTimeout(() => {
        source.cancel(); // sends $/cancelRequest
        reject(
          new LspqError(
            'timeout',
            `${this.spec.id} did not answer ${type.method} within ${seconds(options.budgetMs ?? options.timeoutMs)}; retry with a larger --timeout, or see 'lspq daemon logs'`,
          ),
        );
      }, options.timeoutMs);
      onAbort = () => {
        source.cancel();
        reject(new LspqError('timeout', `${type.method} was cancelled`));
      };
      options.signal?.addEventListener('abort', onAbort);
    });
    const sent =
      params === undefined
        ? this.connection.sendRequest(type as RequestType0<R, E>, source.token)
        : this.connection.sendRequest(type as RequestType<P, R, E>, params as never, source.token);
    sent.catch(() => {});
    try {
      const result = await Promise.race([sent, bounded]);
      this.requestsAnswered++;
      this.checkAnswer(type.method, result);
      return result;
    } catch (err) {
      if (err instanceof LspqError) throw err;
      if (
        err instanceof ResponseError &&
        (err.code === LSPErrorCodes.ServerCancelled || err.code === LSPErrorCodes.ContentModified)
      ) {
        throw new RetryableError(
          new LspqError(
            'server_failed',
            `${this.spec.id} kept cancelling ${type.method} (${firstLine(err.message)}); retry, or see 'lspq daemon logs'`,
          ),
        );
      }
      if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound) {
        throw new LspqError(
          'unsupported',
          `${this.spec.id} does not support ${type.method}; try another server with --server`,
        );
      }
      // A server's error can carry its whole stack (tsserver's does): the user gets its first line, the log the rest.
      const message = (err as Error).message;
      if (message.includes('\n')) this.log(`${this.spec.id} failed ${type.method}: ${message}`);
      const reason = firstLine(message);
      throw new LspqError(
        'server_failed',
        `${this.spec.id} failed ${type.method}: ${reason}; see 'lspq daemon logs'`,
        reason,
      );
    } finally {
      if (notices) clearInterval(notices);
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      if (died) this.onExit.delete(died);
      source.dispose();
    }
  }

  /**
   * A slow request, for a person waiting at a terminal: after a second, and
   * each second on, the server's own progress where it reports some, else
   * the request it has not answered yet.
   */
  private slowNotices(method: string, progress: ((text: string) => void) | undefined) {
    if (!progress) return undefined;
    const started = Date.now();
    return setInterval(() => {
      const waited = Math.round((Date.now() - started) / 1000);
      const what = this.progressTitles.join(', ');
      progress(`${this.spec.id}: ${what || `waiting for ${method}`} (${waited}s)`);
    }, SLOW_NOTICE_MS);
  }

  async sendNotification<P>(type: NotificationType<P>, params: P): Promise<void> {
    if (!this.alive) throw this.crashError();
    await this.connection.sendNotification(type, params as RequestParamOf<P>);
  }

  /** Stops a server whose output can no longer be read; the questions waiting on it fail saying so. */
  private async unreadable(why: string): Promise<void> {
    if (this.brokenFrame || !this.alive) return;
    this.brokenFrame = why;
    await this.killGroup();
  }

  crashError(): LspqError {
    if (this.brokenFrame)
      return new LspqError(
        'server_crashed',
        `${this.spec.id} sent a frame lspq cannot read (${this.brokenFrame}), so it was stopped (root ${this.root}); the next command starts it again`,
      );
    const how = this.exit
      ? this.exit.signal
        ? `was killed by ${this.exit.signal}`
        : `exited with code ${this.exit.code}`
      : 'stopped';
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return new LspqError(
      'server_crashed',
      `${this.spec.id} ${how} (root ${this.root})${tail ? `; its stderr ended with: ${tail}` : ''}; the next command starts it again`,
    );
  }

  /** shutdown, exit, then the process group is killed; resolves once the process is gone. */
  async shutdown(): Promise<void> {
    if (this.alive) {
      try {
        await this.request(ShutdownRequest.type, undefined, { timeoutMs: SHUTDOWN_TIMEOUT_MS });
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // Unresponsive or already gone: the kill below settles it.
      }
    }
    await this.killGroup();
    this.connection.dispose();
  }

  private async killGroup(): Promise<void> {
    const pid = this.proc.pid;
    if (pid === undefined) return;
    const gone = this.alive
      ? new Promise<void>((resolve) => this.proc.once('exit', () => resolve()))
      : Promise.resolve();
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        // The group is already empty.
      }
    };
    const graceful = await Promise.race([gone.then(() => true), Bun.sleep(KILL_GRACE_MS / 2).then(() => false)]);
    if (!graceful) signal('SIGTERM');
    const terminated = await Promise.race([gone.then(() => true), Bun.sleep(KILL_GRACE_MS).then(() => false)]);
    // Helpers the server started (tsserver, cargo check) share its group.
    signal(terminated ? 'SIGTERM' : 'SIGKILL');
    await gone;
  }
}
