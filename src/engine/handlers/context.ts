/**
 * What every handler needs: the server for a file (first installed, first
 * that supports the request), an open and current document, the readiness
 * wait, and one deadline for the whole question.
 */
import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { DEFAULT_TIMEOUT_MS } from '../../protocol/messages';
import { LspqError } from '../../errors';
import type { RequestOptions } from '../../lsp/client';
import { TextSource } from '../../lsp/convert';
import type { LeaseWait, Leases } from '../../lsp/leases';
import type { Resolved, ServerPool, Session } from '../../lsp/manager';
import { activate } from '../../lsp/servers/places';
import { maxFileBytes, sizeOf, tooLarge } from '../../lsp/file-size';
import { loadServers } from '../../lsp/servers/config';
import { findMarkedRoot, findRoot, locateFor } from '../../lsp/servers/locate';
import { knownExtensions, serversForFile, type ServerSpec } from '../../lsp/servers/registry';
import { Trust } from '../../lsp/servers/trust';
import type { CallerContext } from '../../queries';

/** What the engine gives every question: the pool, cancellation, the log, the daemon's hooks. */
export interface EngineContext {
  pool: ServerPool;
  signal?: AbortSignal;
  log: (line: string) => void;
  /** The daemon tells the server of files changed on disk before each request. */
  beforeRequest?: (session: Session) => Promise<void>;
  /** Long answers (a project loading, diag --all) say how far they are, for a person at a terminal. */
  progress?: (text: string) => void;
  /** Where edits are journaled (beside the daemon's socket): every write goes through a journal there. */
  journalDir?: string;
  /** A line for stderr beside the answer (what was left out as untrusted), once per command. */
  warn?: (line: string) => void;
}

/** A question's own view of the engine: the leases it holds on servers, given back when it ends, and what it may run. */
export interface HandlerContext extends EngineContext {
  leases: Leases<Session>;
  /** What of a repository's own code may run for this question, and what it left out (said once, on stderr). */
  trust: Trust;
}

/** One deadline for the whole question: server start, readiness and the request share it. */
export class Deadline {
  private readonly end: number;
  constructor(readonly totalMs: number) {
    this.end = Date.now() + totalMs;
  }
  get remaining(): number {
    return Math.max(1, this.end - Date.now());
  }
  /**
   * Request options: what is left of the budget, the whole budget for the
   * message if it runs out, the question's cancellation, and its progress
   * line for a person at a terminal while the request is slow.
   */
  options(ctx: { signal?: AbortSignal; progress?: (text: string) => void }): RequestOptions {
    return { timeoutMs: this.remaining, budgetMs: this.totalMs, signal: ctx.signal, progress: ctx.progress };
  }
}

export function deadlineFor(req: CallerContext): Deadline {
  return new Deadline(req.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** How much of a file is looked at for NUL bytes, as git and grep decide that a file is binary. */
const BINARY_SNIFF_BYTES = 8_000;

/** A regular file of text: anything else is bad input, refused before a server starts. */
export function assertFile(path: string): void {
  let ok = false;
  let size = 0;
  try {
    const st = statSync(path);
    ok = st.isFile();
    size = st.size;
  } catch {}
  if (!ok) {
    const why = existsSync(path) ? 'is not a regular file' : 'does not exist';
    throw new LspqError(
      'file_not_found',
      `${path} ${why}; check the path (relative paths are from the current directory)`,
    );
  }
  if (size > maxFileBytes()) throw tooLarge(path, size);
  if (holdsNul(path)) throw notText(path);
}

/**
 * The file a path resolves to, and how to show paths in it: a symlink is
 * answered from the project of the file it points to, and locations in
 * that file are printed as the user wrote the link when it lies under the
 * current directory.
 */
export function followLink(path: string, cwd: string): { real: string; shown: (p: string) => string } {
  let real = path;
  let realCwd = cwd;
  try {
    real = realpathSync(path);
    realCwd = realpathSync(cwd);
  } catch {
    return { real, shown: (p) => p };
  }
  const under = (p: string, dir: string) => p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
  const linkShown = real !== path && under(path, cwd);
  // The current directory reached through a link (cd into a linked folder): the project's paths as under it.
  const cwdLinked = realCwd !== cwd;
  return {
    real,
    shown: (p) => {
      if (linkShown && p === real) return path;
      if (cwdLinked && under(p, realCwd)) return `${cwd}${p.slice(realCwd.length)}`;
      return p;
    },
  };
}

/**
 * The name a server is given for a linked file: the link itself when it
 * lies inside the project the server runs for, since the project includes
 * the file by that name (given the target's name instead, tsserver counted
 * the file twice and listed its declaration among the references, and
 * TypeScript 7 found no references at all); else the file it points to.
 */
export function nameInProject(path: string, real: string, root: string): string {
  return path !== real && path.startsWith(root.endsWith('/') ? root : `${root}/`) ? path : real;
}

/**
 * Why lspq cannot hand `path` to a server (a binary file, one past
 * LSPQ_MAX_FILE_MB), or undefined when it can: diag --all, --since and
 * --staged skip such a file with one line naming it and report the rest.
 */
export function unhandable(path: string): string | undefined {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    return undefined;
  }
  const max = maxFileBytes();
  if (size > max) return `${sizeOf(size)}, past the ${sizeOf(max)} lspq hands a server (LSPQ_MAX_FILE_MB)`;
  if (holdsNul(path)) return 'not a text file';
  return undefined;
}

const notText = (path: string) =>
  new LspqError('not_text', `${path} is not a text file (it holds NUL bytes); name a source file`);

/** The same check for text that is not on disk (a staged file). */
export function assertText(path: string, text: string): void {
  if (!isText(text)) throw notText(path);
}

/** Text that is not on disk (a staged file) holds no NUL bytes where git and grep look for them. */
export const isText = (text: string) => !text.slice(0, BINARY_SNIFF_BYTES).includes('\0');

function holdsNul(path: string): boolean {
  const head = Buffer.alloc(BINARY_SNIFF_BYTES);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const n = readSync(fd, head, 0, BINARY_SNIFF_BYTES, 0);
    return head.subarray(0, n).includes(0);
  } catch {
    return false; // unreadable: the open that follows says so
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface Candidate {
  spec: ServerSpec;
  binary: string;
  root: string;
  /** The environment it runs in: the caller's, with the project's Python environment activated for a Python server. */
  env: Record<string, string>;
  /** How the binary was found (for `lspq servers`). */
  rule: string;
  /** The Python environment a Python server runs in. */
  python?: string;
}

/** The servers configured for a file, in order (nothing looked up yet); errors say which extensions work. */
export function configuredFor(path: string, req: CallerContext, trust: Trust): ServerSpec[] {
  const specs = loadServers(dirname(path), req.env, trust);
  const matching = serversForFile(specs, path);
  if (req.server) {
    const chosen = specs.find((s) => s.id === req.server);
    if (!chosen) throw new LspqError('usage', `unknown server '${req.server}'; 'lspq servers' lists the known ids`);
    if (!matching.includes(chosen)) {
      const others = matching.length
        ? `the servers for it: ${matching.map((s) => s.id).join(', ')}`
        : 'no server is configured for it';
      throw new LspqError(
        'usage',
        `${chosen.id} does not handle ${path} (${others}); drop --server or name one of them`,
      );
    }
    return [chosen];
  }
  if (matching.length === 0) {
    throw new LspqError(
      'no_server',
      `no language server is configured for ${path}; known extensions: ${knownExtensions(specs).join(' ')} (add one in .lsp.json)`,
    );
  }
  return matching;
}

function resolve(spec: ServerSpec, path: string, req: CallerContext, ctx: HandlerContext): Candidate | undefined {
  // Everything the lookup reads from the caller: PATH, the Python environment, the tool folders, the trust.
  const e = req.env;
  const lookup = [e.PATH, e.VIRTUAL_ENV, e.HOME, e.LSPQ_TOOL_DIRS, e.GOBIN, e.GOPATH, e.CARGO_HOME, e.XDG_DATA_HOME];
  const key = JSON.stringify([spec.id, spec.command, dirname(path), req.root, Trust.stamp(e), ...lookup]);
  const remembered = ctx.pool.caches.resolved.get(key);
  // What a remembered look-up left out is said again: every command says what it left out.
  if (remembered?.leftOut) ctx.trust.leftOut.push(...remembered.leftOut);
  const found = remembered ?? locate(spec, path, req, ctx.trust);
  if (!found) return undefined; // not remembered: an install is seen at once
  ctx.pool.caches.resolved.set(key, found);
  // The environment is this caller's (GOFLAGS, NODE_OPTIONS... key the pool), with the Python one activated.
  const env = found.python ? activate(req.env, found.python) : req.env;
  const { root, binary, rule, python } = found;
  return { spec, root, binary, rule, env, ...(python ? { python: python.prefix } : {}) };
}

function locate(spec: ServerSpec, path: string, req: CallerContext, trust: Trust): Resolved | undefined {
  // A server for projects that use it (ESLint) is no candidate where nothing above the file says so.
  if (spec.needsMarker && !findMarkedRoot(spec, dirname(path))) return undefined;
  const root = req.root ?? findRoot(spec, path);
  const before = trust.leftOut.length;
  const located = locateFor(spec, root, req.env, trust, dirname(path));
  if (!located) return undefined;
  const leftOut = trust.leftOut.slice(before);
  return {
    root,
    binary: located.binary,
    rule: located.rule,
    ...(located.python ? { python: located.python } : {}),
    ...(leftOut.length ? { leftOut } : {}),
  };
}

function notInstalled(path: string, specs: ServerSpec[]): LspqError {
  const [first, ...others] = specs;
  const alternatives = others.length ? ` (or one of: ${others.map((s) => s.id).join(', ')})` : '';
  if (first!.configuredIn) {
    // The user's own configuration names the command: that file is where to look.
    return new LspqError(
      'server_not_installed',
      `'${first!.command}' (server '${first!.id}' in ${first!.configuredIn}) is not installed or not on PATH (needed for ${path}); install it or fix "command" there${alternatives}`,
    );
  }
  return new LspqError(
    'server_not_installed',
    `${first!.id} is not installed (needed for ${path}); install it: ${first!.install}${alternatives}`,
  );
}

/**
 * None of the installed servers offers the request: name the configured
 * servers that are not installed and not known to lack it, or say none can.
 */
function unsupported(
  path: string,
  specs: ServerSpec[],
  tried: string[],
  capability: keyof ServerCapabilities,
  what: string,
): LspqError {
  const could = specs.filter((s) => !tried.includes(s.id) && !s.lacks?.includes(capability));
  const hint = could.length
    ? `not installed, and may: ${could.map((s) => `${s.id} (${s.install})`).join('; ')}`
    : `no other known server for ${extensionOf(path)} files offers it`;
  return new LspqError(
    'unsupported',
    `${tried.join(', ')} cannot answer ${what} for ${path}; ${hint} ('lspq servers --for FILE' lists what each can answer)`,
  );
}

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : base;
}

/** Every installed server for a file, in order (diag asks them all). */
export function candidatesFor(path: string, req: CallerContext, ctx: HandlerContext): Candidate[] {
  const specs = configuredFor(path, req, ctx.trust);
  const found = specs.map((spec) => resolve(spec, path, req, ctx)).filter((c): c is Candidate => c !== undefined);
  if (found.length === 0) throw notInstalled(path, specs);
  return found;
}

/**
 * The server for a candidate, started or reused, with a shared lease for
 * this question: while another question holds it alone (diag --staged, an
 * edit), this one waits, so it never sees that question's state.
 */
export async function acquire(ctx: HandlerContext, candidate: Candidate, req: CallerContext): Promise<Session> {
  const starting = ctx.pool.acquire({
    spec: candidate.spec,
    binary: candidate.binary,
    root: candidate.root,
    env: candidate.env,
  });
  // A server that does not start within the question's time fails the question, naming it (the start goes on).
  const budget = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new LspqError(
            'timeout',
            `${candidate.spec.id} did not start within ${budget / 1000}s (it did not answer initialize for ${candidate.root}); see 'lspq daemon logs', or retry with a larger --timeout`,
          ),
        ),
      budget,
    );
  });
  starting.catch(() => {});
  let session: Session;
  try {
    session = await Promise.race([starting, late]);
  } finally {
    clearTimeout(timer);
  }
  await ctx.leases.share(session, leaseWait(session, req, ctx));
  return session;
}

/** How long a question waits for a lease: within its own --timeout, and no longer than it is wanted. */
export function leaseWait(session: Session, req: CallerContext, ctx: HandlerContext): LeaseWait {
  return {
    timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: ctx.signal,
    what: `${session.client.spec.id} (${session.client.root})`,
  };
}

/**
 * `sessions` to this question alone, for a change to what they see (the
 * index's text, an edit on disk); then every open document is compared
 * with the disk again, since another question may have changed it.
 */
export async function holdAlone(
  sessions: Session[],
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<void> {
  if (sessions.length === 0) return;
  await ctx.leases.exclusive(sessions, { ...leaseWait(sessions[0]!, req, ctx), timeoutMs: deadline.remaining });
  for (const session of sessions) await prepare(session, ctx, deadline);
}

/**
 * The first installed server for `path` that offers `capability`. Servers
 * that lack it are a different answer from a failure: if none has it, say so.
 */
export async function sessionFor(
  ctx: HandlerContext,
  req: CallerContext,
  path: string,
  capability: keyof ServerCapabilities,
  what: string,
): Promise<Session> {
  const tried: string[] = [];
  const configured = configuredFor(path, req, ctx.trust);
  // Formatting asks the file's formatter first (registry data: ruff before pylsp).
  const rank = (s: ServerSpec) => (s.formatter === 'first' ? 0 : s.formatter === 'last' ? 2 : 1);
  const formats = capability === 'documentFormattingProvider' || capability === 'documentRangeFormattingProvider';
  const specs = formats && !req.server ? [...configured].sort((a, b) => rank(a) - rank(b)) : configured;
  // Looked up one at a time: the first installed server usually answers, and
  // finding roots and binaries for all of them is most of a warm answer's cost.
  for (const spec of specs) {
    const candidate = resolve(spec, path, req, ctx);
    if (!candidate) continue;
    const session = await acquire(ctx, candidate, req);
    if (session.client.capabilities[capability]) return session;
    tried.push(spec.id);
  }
  if (tried.length === 0) throw notInstalled(path, specs);
  throw unsupported(path, specs, tried, capability, what);
}

/** Brings every open document of the session up to date with the disk, then waits for readiness. */
export async function prepare(session: Session, ctx: HandlerContext, deadline: Deadline): Promise<void> {
  await ctx.beforeRequest?.(session);
  await session.docs.refreshAll();
  const client = session.client;
  const uris = session.docs.paths.map((p) => session.docs.uri(p));
  if (client.isReady(uris)) return;
  // A project that takes more than a second to load is worth a word to a person waiting for it.
  const report = ctx.progress;
  const ticker = report
    ? setInterval(() => {
        const what = client.progressTitles.join(', ');
        report(`${client.spec.id}: loading the project at ${client.root}${what ? ` (${what})` : ''}`);
      }, LOADING_NOTICE_MS)
    : undefined;
  try {
    await client.waitFor(() => client.isReady(uris), deadline.remaining, 'loading the project', ctx.signal);
  } finally {
    if (ticker) clearInterval(ticker);
  }
}

/** How long a project loads before a person at a terminal is told about it, and then how often. */
const LOADING_NOTICE_MS = 1_000;

/** Lines of the session's open documents and of files on disk, for converting one answer's positions. */
export function textsOf(session: Session, ctx: HandlerContext): TextSource {
  return new TextSource((p) => session.docs.text(p), ctx.pool.caches.lines);
}

/** Runs `fn` with the session marked busy, so idle shutdown and eviction leave it alone. */
export async function using<T>(session: Session, fn: () => Promise<T>): Promise<T> {
  session.inFlight++;
  session.lastUsed = Date.now();
  try {
    return await fn();
  } finally {
    session.inFlight--;
    session.lastUsed = Date.now();
  }
}
