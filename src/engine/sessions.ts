/**
 * The server for a file: the configured ones in order, the first installed
 * that supports the request, started or reused with a lease taken, its
 * document open and current, and ready (the readiness wait).
 */

import type { Deadline, HandlerContext } from './context';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { DEFAULT_TIMEOUT_MS } from '../common/messages';
import { LspqError } from '../common/errors';
import { TextSource } from '../lsp/convert';
import type { LeaseWait } from '../lsp/leases';
import type { AcquireOptions, Resolved, Session } from '../lsp/manager';
import { activate, ancestors } from '../lsp/servers/install-places';
import { loadServers } from '../lsp/servers/config';
import { findMarkedRoot, findRoot, locateFor, withUserPath } from '../lsp/servers/locate';
import { knownExtensions, serversForFile, type ServerSpec } from '../lsp/servers/registry';
import { Trust } from '../trust/decision';
import { overlaid, underTrust } from '../lsp/servers/untrusted';
import { realOf } from '../common/real-path';
import { repositoryOf } from '../trust/store';
import type { CallerContext } from '../answers/caller';
import { holderAbove, readsWithPlugins, withTsPlugins } from '../lsp/servers/ts-plugins';
import { tsserverRelay } from './tsserver-relay';

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

/** Whether the npm package `name` is installed at or above `dir` (a project's node_modules). */
const packageAbove = (name: string, dir: string) =>
  ancestors(dir).some((d) => existsSync(join(d, 'node_modules', name, 'package.json')));

/** Why a configured server does not answer for a file: not installed, not trusted, or not for this file (and why). */
export type PassedOver =
  | { id: string; missing: string }
  | { id: string; untrusted: true }
  | { id: string; notUsed: string };

function resolve(
  spec: ServerSpec,
  path: string,
  req: CallerContext,
  ctx: HandlerContext,
  passed?: PassedOver[],
): Candidate | undefined {
  const notUsed = (why: string) => {
    passed?.push({ id: spec.id, notUsed: why });
    return undefined;
  };
  // A server for projects that use it (ESLint) is no candidate where nothing above the file says so.
  if (spec.needsMarker && !findMarkedRoot(spec, dirname(path)))
    return notUsed(
      `nothing above ${dirname(path)} configures it (${spec.rootMarkers.flat().slice(0, 3).join(', ')}, ...)`,
    );
  // Everything the lookup reads from the caller: PATH, the Python environment, the tool folders, the trust.
  const e = req.env;
  const lookup = [e.PATH, e.VIRTUAL_ENV, e.HOME, e.LSPQ_TOOL_DIRS, e.GOBIN, e.GOPATH, e.CARGO_HOME, e.XDG_DATA_HOME];
  const key = JSON.stringify([spec.id, spec.command, dirname(path), req.root, Trust.stamp(e), ...lookup]);
  const remembered = ctx.pool.caches.resolved.get(key);
  // What a remembered look-up left out is said again: every command says what it left out.
  if (remembered?.leftOut) ctx.trust.leftOut.push(...remembered.leftOut);
  const found = remembered ?? locate(spec, path, req, ctx.trust);
  if (!found) {
    // Not remembered: an install is seen at once.
    passed?.push(
      ctx.trust.passedOver.has(spec.command)
        ? { id: spec.id, untrusted: true }
        : { id: spec.id, missing: spec.install },
    );
    return undefined;
  }
  ctx.pool.caches.resolved.set(key, found);
  const decided = decide(spec, found, req, ctx.trust);
  if (!decided) {
    passed?.push({ id: spec.id, untrusted: true });
    return undefined;
  }
  const { root } = decided;
  // A server that runs the project's own tool (ESLint) where the project has its configuration but not the
  // tool: left out, said once, as the tool itself could not run either.
  if (spec.needsPackage && !packageAbove(spec.needsPackage, dirname(path))) {
    const why = `no ${spec.needsPackage} package is installed for ${dirname(path)} (npm install -D ${spec.needsPackage})`;
    ctx.warn?.(`left out ${spec.id}: ${why}`);
    return notUsed(why);
  }
  // A framework it cannot see (TypeScript 7 and Svelte): another server answers, or none does (exit 3), not half.
  const framework = spec.blindTo?.find((pkg) => holderAbove(pkg, root) !== undefined);
  if (framework) {
    const why = `it loads no tsserver plugins, and ${framework} files import this project's code`;
    if (req.server === spec.id)
      throw new LspqError('unsupported', `${spec.id} cannot answer for ${root} whole: ${why}; drop --server`);
    ctx.warn?.(`left out ${spec.id}: ${why}`);
    return notUsed(why);
  }
  // A .vue file is the TypeScript server's only with Vue's plugin loaded.
  if (!readsWithPlugins(decided.spec, path)) return notUsed(`it reads ${path} only with a tsserver plugin, not found`);
  return decided;
}

/**
 * The one decision of what runs for a server found for a file (`locate`):
 * the spec it runs as where trust does not cover the workspace (its
 * untrusted mode, a Python environment's packages read as files, the
 * user's plugins), in the caller's environment; undefined where it may not
 * run. `trust` records what was left out: the runtime says it, and `lspq
 * trust --explain` lists it from this same call.
 */
export function decide(spec: ServerSpec, found: Resolved, req: CallerContext, trust: Trust): Candidate | undefined {
  // The environment is this caller's (GOFLAGS, NODE_OPTIONS... key the pool), with the Python one activated, and
  // only PATH's absolute entries (a relative one would find the workspace's programs from the server's cwd).
  const env = withUserPath(found.python ? activate(req.env, found.python) : req.env);
  const { root, binary, rule, python, packages } = found;
  // In a workspace not trusted, the server's untrusted mode (a different spec, so a different pool entry).
  const untrusted = underTrust(spec, root, binary, trust, req.env, realOf);
  if (!untrusted) {
    trust.refused.add(spec.id);
    return undefined;
  }
  // A Python environment not trusted: its packages read as files, its interpreter never run.
  const allowed = packages && spec.packagePaths ? overlaid(untrusted, spec.packagePaths(packages)) : untrusted;
  const planned = withTsPlugins(allowed, root, trust, env, realOf);
  // Not trusted, and a box can be made: it runs as configured, inside the box.
  const box = trust.boxFor([root, binary, ...(python ? [python.prefix] : [])]);
  const spec2 = box ? { ...planned, contained: box } : planned;
  return { spec: spec2, root, binary, rule, env, ...(python ? { python: python.prefix } : {}) };
}

/** Where a server for `path` runs and its binary, found as trust allows (trust records what it passed over). */
export function locate(spec: ServerSpec, path: string, req: CallerContext, trust: Trust): Resolved | undefined {
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
    ...(located.packages ? { packages: located.packages } : {}),
    ...(leftOut.length ? { leftOut } : {}),
  };
}

/** Why no configured server can run for `path`; without a path, the same words for files said together. */
export function notInstalled(path: string | undefined, specs: ServerSpec[], trust: Trust): LspqError {
  const forPath = path === undefined ? '' : ` for ${path}`;
  const needed = path === undefined ? '' : ` (needed for ${path})`;
  const refused = specs.filter((s) => trust.refused.has(s.id));
  if (refused.length > 0) {
    return new LspqError(
      'untrusted',
      `${refused.map((s) => s.id).join(', ')} would run the workspace's own code${forPath}, and the workspace is not trusted; 'lspq trust --explain' lists what trusting lets run, 'lspq trust' allows it`,
    );
  }
  const [first, ...others] = specs;
  // configuredFor gives at least one server or says none is configured.
  if (!first) return new LspqError('no_server', `no language server is configured${forPath}`);
  const alternatives = others.length ? ` (or one of: ${others.map((s) => s.id).join(', ')})` : '';
  if (first.configuredIn) {
    // The user's own configuration names the command: that file is where to look.
    return new LspqError(
      'server_not_installed',
      `'${first.command}' (server '${first.id}' in ${first.configuredIn}) is not installed or not on PATH${needed}; install it or fix "command" there${alternatives}`,
    );
  }
  // Installed only in the workspace: the user's own install, or trusting the workspace, would run it.
  for (const passed of specs) {
    const program = trust.passedOver.get(passed.command);
    if (program === undefined) continue;
    return new LspqError(
      'server_not_installed',
      `${passed.id} is installed only in the workspace (${program}), which is not trusted${needed}; install it for yourself: ${passed.install}, or let the workspace's run: lspq trust ${repositoryOf(dirname(program))}`,
    );
  }
  return new LspqError(
    'server_not_installed',
    `${first.id} is not installed${needed}; install it: ${first.install}${alternatives}`,
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
  // A server that offers it for a licence says so: it is no fault of the project's.
  const paid = specs
    .map((s) =>
      tried.includes(s.id) && s.paid?.capabilities.includes(capability)
        ? `; ${s.id} answers ${what} only with ${s.paid.how}`
        : '',
    )
    .join('');
  return new LspqError(
    'unsupported',
    `${tried.join(', ')} cannot answer ${what} for ${path}${paid}; ${hint} ('lspq servers --for FILE' lists what each can answer)`,
  );
}

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : base;
}

/** Every installed server for a file, in order (diag asks them all). */
export function candidatesFor(
  path: string,
  req: CallerContext,
  ctx: HandlerContext,
  passed?: PassedOver[],
): Candidate[] {
  const specs = configuredFor(path, req, ctx.trust);
  const found = specs
    .map((spec) => resolve(spec, path, req, ctx, passed))
    .filter((c): c is Candidate => c !== undefined);
  if (found.length === 0) throw notInstalled(path, specs, ctx.trust);
  return found;
}

/**
 * The server for a candidate, started or reused, with a shared lease for
 * this question: while another question holds it alone (diag --staged, an
 * edit), this one waits, so it never sees that question's state.
 */
export async function acquire(ctx: HandlerContext, candidate: Candidate, req: CallerContext): Promise<Session> {
  const options = {
    spec: candidate.spec,
    binary: candidate.binary,
    root: candidate.root,
    env: candidate.env,
    ...(ctx.extraServers ? { extra: true } : {}),
  };
  const session = ctx.pool.warm(options) ?? (await started(ctx, candidate, options, req));
  await ctx.leases.share(session, leaseWait(session, req, ctx));
  const plugin = candidate.spec.relaysTsserverTo;
  if (plugin) session.client.tsserverRelay ??= tsserverRelay(ctx.pool, candidate.root, plugin);
  return session;
}

/** The server started (or its start joined), within the question's time. */
async function started(
  ctx: HandlerContext,
  candidate: Candidate,
  options: AcquireOptions,
  req: CallerContext,
): Promise<Session> {
  const starting = ctx.pool.acquire(options);
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
  try {
    return await Promise.race([starting, late]);
  } finally {
    clearTimeout(timer);
  }
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
  const [first] = sessions;
  if (!first) return;
  await ctx.leases.exclusive(sessions, { ...leaseWait(first, req, ctx), timeoutMs: deadline.remaining });
  for (const session of sessions) await prepare(session, ctx, deadline);
}

/**
 * The first installed server for `path` that offers `capability`, past the
 * ones in `skip` (asked already). Servers that lack it are a different
 * answer from a failure: if none has it, say so.
 */
export async function sessionFor(
  ctx: HandlerContext,
  req: CallerContext,
  path: string,
  capability: keyof ServerCapabilities,
  what: string,
  skip: string[] = [],
): Promise<Session> {
  const tried: string[] = [];
  const configured = configuredFor(path, req, ctx.trust);
  // Formatting asks the file's formatter first (registry data: ruff before pylsp).
  const rank = (s: ServerSpec) => (s.formatter === 'first' ? 0 : s.formatter === 'last' ? 2 : 1);
  const formats = capability === 'documentFormattingProvider' || capability === 'documentRangeFormattingProvider';
  const ordered = formats && !req.server ? [...configured].sort((a, b) => rank(a) - rank(b)) : configured;
  // A file's own server first for what it knows better than the TypeScript server beside it (a .vue file's outline).
  const own = (s: ServerSpec) => (s.answersFirst?.includes(capability) ? 0 : 1);
  const specs = [...ordered].sort((a, b) => own(a) - own(b));
  // Looked up one at a time: the first installed server usually answers, and
  // finding roots and binaries for all of them is most of a warm answer's cost.
  for (const spec of specs) {
    if (skip.includes(spec.id)) continue;
    const candidate = resolve(spec, path, req, ctx);
    if (!candidate) continue;
    const session = await acquire(ctx, candidate, req);
    if (session.client.capabilities[capability]) return session;
    tried.push(spec.id);
  }
  if (tried.length === 0) throw notInstalled(path, specs, ctx.trust);
  throw unsupported(path, specs, tried, capability, what);
}

/** Brings every open document of the session up to date with the disk, then waits for readiness. */
export async function prepare(session: Session, ctx: HandlerContext, deadline: Deadline): Promise<void> {
  await ctx.beforeRequest?.(session);
  await session.docs.refreshAll();
  const client = session.client;
  const uris = session.docs.paths.map((p) => session.docs.uri(p));
  if (client.state.isReady(uris)) return;
  // A project that takes more than a second to load is worth a word to a person waiting for it.
  const report = ctx.progress;
  const ticker = report
    ? setInterval(() => {
        const what = client.state.progressTitles.join(', ');
        report(`${client.spec.id}: loading the project at ${client.root}${what ? ` (${what})` : ''}`);
      }, LOADING_NOTICE_MS)
    : undefined;
  try {
    await client.waitFor(() => client.state.isReady(uris), deadline.remaining, 'loading the project', ctx.signal);
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

export const familyOf = (spec: ServerSpec) => spec.family ?? spec.id;

/**
 * Servers of one family are alternatives (pyright, basedpyright): the first
 * found of each family answers, beside those of the others (ruff). `taken`
 * holds the families already asked.
 */
export function onePerFamily<T extends { spec: ServerSpec }>(candidates: T[], taken = new Set<string>()): T[] {
  return candidates.filter((c) => {
    const family = familyOf(c.spec);
    if (taken.has(family)) return false;
    taken.add(family);
    return true;
  });
}
