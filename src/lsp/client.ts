import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CancellationTokenSource,
  DidChangeConfigurationNotification,
  createMessageConnection,
  ExitNotification,
  InitializedNotification,
  type NotificationType,
  StreamMessageReader,
  StreamMessageWriter,
  type ApplyWorkspaceEditResult,
  type FormattingOptions,
  type WorkspaceEdit,
  type MessageConnection,
  type RequestType,
  type RequestType0,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node';
import { LspqError, messageOf } from '../common/errors';
import { type Checked, Requests } from './requests';
import { clientCapabilities } from './capabilities';
import { answerServer } from './server-answers';
import { killGroup, spawnServer } from './server-process';
import { ServerState } from './server-state';
import { negotiatedEncoding, type PositionEncoding } from './position';
import type { ServerSpec } from './servers/registry';
import { processRuns } from '../common/process';
import { ProcessProbe } from '../common/process-table';
import { pathToUri } from './uri';
import { RetryableError, requestFailure, seconds } from './request-failures';
import { mergeSettings, sameStyle, settingAt, styleSections, withRoot } from './style-settings';
import { workerGone } from './workers';
import { checkAnswer, crashError } from './server-faults';
import { slowNotices } from './slow-notices';
import { traceMessages } from './trace';
import type { RequestOptions } from './request-options';

export const INITIALIZE_TIMEOUT_MS = 60_000;
export const SHUTDOWN_TIMEOUT_MS = 2_000;
const STDERR_TAIL_BYTES = 4_096;
const STDERR_DRAIN_MS = 200;

type RequestParamOf<P> = P extends null ? P | undefined : P;
/** First and longest pause before asking again a request the server cancelled because it was busy. */
/** How long a write that failed waits for the server's exit to be reported, to say why it died. */
const EXIT_REPORT_MS = 1_000;

const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 800;

export interface StartOptions {
  spec: ServerSpec;
  binary: string;
  root: string;
  env: Record<string, string>;
  log?: (line: string) => void;
  /** Aborted (the daemon stops): a server still starting is killed at once, not awaited. */
  signal?: AbortSignal;
}

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
  /** Where this server's tsserver requests go (vue-language-server's, to the TypeScript server of its root). */
  tsserverRelay: ((command: string, args: unknown) => Promise<unknown>) | undefined;
  encoding: PositionEncoding = 'utf-16';
  /** The settings it is answered with: its spec's, and the project's interpreter. */
  private readonly ownSettings: Record<string, unknown>;
  /** Why its output could not be read, once it could not: it was stopped for it. */
  private brokenFrame: string | undefined;
  /** What its worker process said as it died (tsserver's exit), once it did: the server is stopped for it. */
  private deadWorker: string | undefined;
  /** It said it could not load the project, and was stopped for it: why. */
  private failedProject: string | undefined;
  /** Its size against the daemon's limit, once it was stopped for growing past it alone. */
  private overMemory: string | undefined;
  /** The indentation last told to a server whose spec has `style`. */
  private style: FormattingOptions | undefined;
  requestsAnswered = 0;
  /** Set once the process has exited; every later call fails fast. */
  exit: { code: number | null; signal: string | null } | undefined;
  /** What the server has told: registrations, diagnostics, progress, readiness. */
  readonly state: ServerState;
  private stderrTail = '';
  /**
   * Who waits for the process to die: each request in flight, removed
   * when it settles. (A request raced against one long-lived promise of the
   * exit instead: each race left a reaction on it, holding the answer, for
   * as long as the server lived; 1.8 million objects after 9,000 questions.)
   */
  private readonly onExit = new Set<(err: LspqError) => void>();
  /** Whether its process still runs, asked before each question. */
  private readonly probe: ProcessProbe | undefined;
  private readonly connection: MessageConnection;
  private readonly log: (line: string) => void;

  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    options: StartOptions,
  ) {
    this.spec = options.spec;
    this.root = options.root;
    const indexes = this.spec.indexedBy !== undefined && existsSync(join(this.root, this.spec.indexedBy));
    this.state = new ServerState(this.spec.readiness, indexes);
    const python = options.env.VIRTUAL_ENV;
    // The project's interpreter, told where the server reads it, as an editor's Python extension does.
    const settings = withRoot(this.spec.settings ?? {}, this.root, existsSync);
    this.ownSettings =
      this.spec.interpreterSetting && python
        ? mergeSettings(settings, { python: { pythonPath: join(python, 'bin', 'python') } })
        : settings;
    const log = options.log ?? (() => {});
    this.log = log;
    this.probe = proc.pid === undefined ? undefined : new ProcessProbe(proc.pid, processRuns);
    const stderrDone = new Promise<void>((resolve) => proc.stderr.once('end', resolve));
    proc.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.probe?.close();
      log(`${this.spec.id} (${this.root}) exited code=${code} signal=${signal}`);
      // Its last words on stderr are the useful part of the error; give them a moment to arrive.
      void Promise.race([stderrDone, Bun.sleep(STDERR_DRAIN_MS)]).then(() => {
        const err = this.crashError();
        for (const fail of [...this.onExit]) fail(err);
        this.onExit.clear();
        this.state.notify();
      });
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(proc.stdout),
      new StreamMessageWriter(proc.stdin),
    );
    answerServer(this.connection, this.state, {
      spec: this.spec,
      root: this.root,
      log,
      setting: (section) => this.setting(section),
      applyEdit: (edit) =>
        this.onApplyEdit
          ? this.onApplyEdit(edit)
          : { applied: false, failureReason: 'lspq applies a server edit only while it runs a code action' },
      showDocument: (uri) => {
        this.onShowDocument?.(uri);
        return this.onShowDocument !== undefined;
      },
      unreadable: (why) => void this.unreadable(why),
      workerDied: (why) => void this.workerDied(why),
      projectFailed: (why) => void this.projectFailed(why),
      relayTsserver: (command, args) => this.tsserverRelay?.(command, args) ?? Promise.resolve(null),
    });
    // LSPQ_TRACE_LSP=1 logs every message, for diagnosing a server's behaviour.
    if (options.env.LSPQ_TRACE_LSP) traceMessages(this.connection, this.spec.id, log);
    this.connection.listen();
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /**
   * Alive and its process really runs: a server killed from outside is dead (or a zombie) a moment
   * before Bun reports its exit, and a question sent to it then would fail instead of starting anew.
   */
  get running(): boolean {
    // A server whose worker died is being stopped: the next question starts a fresh one rather than wait for it.
    if (this.deadWorker || this.overMemory || this.failedProject) return false;
    return this.alive && (this.probe?.runs() ?? true);
  }

  static async start(options: StartOptions): Promise<LspClient> {
    const proc = await spawnServer(options.spec, options.binary, options.root, options.env);
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
      Requests.initialize,
      {
        // Boxed, the daemon is out of reach (bubblewrap's PID namespace, Landlock's signal scope): a server that
        // watches the PID it is given would take it for gone and exit at once.
        processId: this.spec.contained ? null : process.pid,
        clientInfo: { name: 'lspq', version: '0.1.0' },
        rootUri,
        rootPath: this.root,
        workspaceFolders: [{ uri: rootUri, name: this.root.slice(this.root.lastIndexOf('/') + 1) || '/' }],
        capabilities: clientCapabilities(this.spec.countsCodePoints),
        initializationOptions: this.spec.initializationOptions,
      },
      { timeoutMs: INITIALIZE_TIMEOUT_MS },
    );
    this.capabilities = result.capabilities;
    // A version, not a build's whole description (gopls sends its build info as JSON).
    const info = result.serverInfo;
    if (info?.version && /^v?\d+\.\d+[\w.+-]*$/.test(info.version)) this.serverVersion = `${info.name} ${info.version}`;
    this.encoding = this.spec.countsCodePoints ? 'utf-32' : negotiatedEncoding(result.capabilities.positionEncoding);
    await this.sendNotification(InitializedNotification.type, {});
    // In its untrusted mode a server is told its settings at once: pylsp reads them only from this notification.
    if (this.spec.restricted?.settings)
      await this.sendNotification(DidChangeConfigurationNotification.type, {
        settings: this.setting(undefined),
      });
  }

  /** The answer to one workspace/configuration item: the section's settings, or null. */
  private setting(section: string | undefined): unknown {
    const own = this.ownSettings;
    const settings =
      this.spec.style && this.style ? mergeSettings(own, styleSections(this.spec.style, this.style)) : own;
    return settingAt(settings, section);
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

  /** Resolves once `condition()` holds, re-checked on every server event; rejects at the deadline, on exit, or once it is stopped for what it said. */
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
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (!this.alive || this.failedProject || this.deadWorker) done(this.crashError());
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
      const unsubscribe = this.state.onEvent(check);
      signal?.addEventListener('abort', onAbort);
    });
  }

  /** Sends one of `Requests` (requests.ts), its answer checked against the request's shape. */
  async request<P, R>(req: Checked<P, R>, params: P, options: RequestOptions): Promise<R> {
    // A server busy with a change answers ServerCancelled or ContentModified and
    // expects the request again (rust-analyzer's pull diagnostics while it analyses).
    const end = Date.now() + options.timeoutMs;
    for (let wait = RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      try {
        return await this.requestOnce(req, params, { ...options, timeoutMs: Math.max(1, end - Date.now()) });
      } catch (err) {
        if (!(err instanceof RetryableError) || Date.now() + wait >= end || options.signal?.aborted) {
          throw err instanceof RetryableError ? err.failure : err;
        }
        await Bun.sleep(wait);
      }
    }
  }

  private async requestOnce<P, R>(req: Checked<P, R>, params: P, options: RequestOptions): Promise<R> {
    if (!this.alive) throw this.crashError();
    const { type } = req;
    const source = new CancellationTokenSource();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    let died: ((err: LspqError) => void) | undefined;
    const notices = slowNotices(this.spec.id, this.state, type.method, options.progress);
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
    const sentAt = performance.now();
    // vscode-jsonrpc's overloads are by the params' arity, which the one generic type here leaves open.
    const sent =
      params === undefined
        ? this.connection.sendRequest(type as RequestType0<R, unknown>, source.token)
        : this.connection.sendRequest(type as RequestType<P, R, unknown>, params as never, source.token);
    sent.catch(() => {});
    try {
      const result = await Promise.race([sent, bounded]);
      options.serverTime?.add(sentAt);
      // Answered after its worker died: an empty answer from a server with nothing behind it, not the truth.
      if (!this.deadWorker && (await workerGone(this.spec, this.proc.pid, result, this.connection)))
        await this.workerDied('its worker process is gone');
      if (this.deadWorker || this.overMemory || this.failedProject) throw this.crashError();
      this.requestsAnswered++;
      checkAnswer(this.spec.id, type.method, req.shape, result, this.log);
      return result;
    } catch (err) {
      throw requestFailure(err, this.spec.id, type.method, this.log);
    } finally {
      if (notices) clearInterval(notices);
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      if (died) this.onExit.delete(died);
      source.dispose();
    }
  }

  async sendNotification<P>(type: NotificationType<P>, params: P): Promise<void> {
    if (!this.alive) throw this.crashError();
    try {
      // The same P: vscode-jsonrpc's overload spells a notification's params through RequestParamOf.
      await this.connection.sendNotification(type, params as RequestParamOf<P>);
    } catch (err) {
      // Its input closed under the write: it exited (its exit is reported a moment later), and says why in stderr.
      await this.exited(EXIT_REPORT_MS);
      if (!this.alive) throw this.crashError();
      throw new LspqError('server_failed', `${this.spec.id} could not be sent ${type.method}: ${messageOf(err)}`);
    }
  }

  /** Resolves once its exit is reported, or after `ms`. */
  private exited(ms: number): Promise<void> {
    if (!this.alive) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.proc.once('exit', () => {
        clearTimeout(timer);
        // The exit handler that records it runs first; a turn later it is seen.
        setImmediate(resolve);
      });
    });
  }

  /** Stops a server whose output can no longer be read; the questions waiting on it fail saying so. */
  private async unreadable(why: string): Promise<void> {
    if (this.brokenFrame || !this.alive) return;
    this.brokenFrame = why;
    await this.killGroup();
  }

  /**
   * A worker that answers for the server died while the server lives on
   * (tsserver killed, or out of its heap): every answer from now on would be
   * "nothing found". The server is stopped, the questions under way fail
   * naming the crash, and the next question starts it afresh.
   */
  private async workerDied(why: string): Promise<void> {
    if (this.deadWorker || !this.alive) return;
    this.deadWorker = why;
    this.log(`${this.spec.id}: a process it runs died (${why}): stopping it; the next question starts it again`);
    await this.killGroup();
  }

  /** Stops a server that says it could not load the project: its answers from now on would be empty, not true. */
  private async projectFailed(why: string): Promise<void> {
    if (this.failedProject || !this.alive) return;
    this.failedProject = why;
    this.state.notify();
    this.log(`${this.spec.id}: could not load the project (${why}): stopping it; the next question starts it again`);
    await this.killGroup();
  }

  /** Stops a server that alone grew past the daemon's memory limit: the questions under way fail naming both sizes. */
  async stopOverMemory(sizes: string): Promise<void> {
    if (this.overMemory || !this.alive) return;
    this.overMemory = sizes;
    await this.killGroup();
  }

  crashError(): LspqError {
    return crashError({
      id: this.spec.id,
      root: this.root,
      exit: this.exit,
      stderrTail: this.stderrTail,
      brokenFrame: this.brokenFrame,
      deadWorker: this.deadWorker,
      failedProject: this.failedProject,
      overMemory: this.overMemory,
    });
  }

  /** shutdown, exit, then the process group is killed; resolves once the process is gone. */
  async shutdown(): Promise<void> {
    if (this.alive) {
      try {
        await this.request(Requests.shutdown, undefined, { timeoutMs: SHUTDOWN_TIMEOUT_MS });
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // Unresponsive or already gone: the kill below settles it.
      }
    }
    await this.killGroup();
    this.connection.dispose();
  }

  private async killGroup(): Promise<void> {
    await killGroup(this.proc, this.alive);
  }
}
