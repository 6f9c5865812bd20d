/**
 * Complete diagnostics for open documents, by each server's own signal (its
 * registry entry names the strategy; docs/servers.md says why). A fixed
 * sleep is wrong both ways; when a bound is reached the file is reported
 * incomplete, never clean.
 */
import { Requests } from './requests';
import {
  DiagnosticSeverity,
  DiagnosticTag,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  NotificationType,
  type Diagnostic,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol';
import * as z from 'zod/mini';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LspqError } from '../common/errors';
import { firstIssue } from '../common/zod-issues';
import { isRecord } from '../common/records';
import type { Session } from './manager';
import type { DiagnosticsStrategy, ServerSpec } from './servers/registry';

/** After a push, this long without another publish for the file means the wave is over. */
export const PUSH_QUIET_MS = 250;
/**
 * A push server that says nothing this long after it is ready has nothing
 * new to say: servers publish only when a file's diagnostics change, so an
 * unchanged file (or an edit that leaves it clean) brings no publish at all.
 */
export const PUSH_SETTLE_MS = 1_500;
const GOPLS_DIAGNOSE = 'gopls.diagnose_files';
const TSSERVER_REQUEST = 'typescript.tsserverRequest';

export interface DiagnosticsOptions {
  deadline: () => number;
  budgetMs?: number;
  signal?: AbortSignal;
  /**
   * The server's own diagnostics only, never those of a check it runs on
   * the disk (rust-analyzer's cargo check): the texts it holds are not the
   * disk's (a patch checked in memory), so the check would speak of others.
   */
  ownOnly?: boolean;
  /**
   * Files diagnosed beside `paths`, their answers not read: gopls keeps a
   * view per build an open file needs (a `_windows.go`), publishes each
   * file's diagnostics of every view, and diagnose_files brings only the
   * views of the files it names up to date.
   */
  views?: string[];
}

/** What a server offers, as it said: its capabilities, and the methods it registered since. */
export interface Offered {
  capabilities: ServerCapabilities;
  registered: Iterable<string>;
}

/** A running server's offer. */
export const offeredBy = (session: Session): Offered => ({
  capabilities: session.client.capabilities,
  registered: [...session.client.state.registrations.values()].map((r) => r.method),
});

const offersCommand = (offered: Offered, command: string) =>
  offered.capabilities.executeCommandProvider?.commands.includes(command) ?? false;

/** Whether the server answers textDocument/diagnostic (announced at start, or registered since). */
export function offersPull(session: Session): boolean {
  return pullOffered(offeredBy(session));
}

function pullOffered(offered: Offered): boolean {
  if (offered.capabilities.diagnosticProvider) return true;
  for (const method of offered.registered) if (method === DocumentDiagnosticRequest.method) return true;
  return false;
}

/** The server's declared strategy where it has what that needs; pull where offered; else its pushes. */
export function strategyFor(session: Session): DiagnosticsStrategy {
  return strategyOf(session.client.spec, offeredBy(session));
}

/** The same, from what a server offered when it last ran (servers --for, which starts nothing). */
export function strategyOf(spec: ServerSpec, offered: Offered): DiagnosticsStrategy {
  const declared = spec.diagnostics;
  if (declared === 'gopls-barrier' && offersCommand(offered, GOPLS_DIAGNOSE)) return declared;
  if (declared === 'tsserver' && offersCommand(offered, TSSERVER_REQUEST)) return declared;
  if (declared === 'versioned' || declared === 'push-each') return declared;
  if (declared === 'pull-and-check' && pullOffered(offered)) return declared;
  return pullOffered(offered) ? 'pull' : 'push';
}

async function pull(session: Session, path: string, uri: string, o: DiagnosticsOptions): Promise<Diagnostic[]> {
  const previous = session.docs.pulled(path);
  const state = session.client.state;
  const failures = state.failuresLogged;
  const report = await session.client.request(
    Requests.documentDiagnostic,
    { textDocument: { uri }, ...(previous ? { previousResultId: previous.resultId } : {}) },
    { timeoutMs: o.deadline(), budgetMs: o.budgetMs, signal: o.signal },
  );
  // Its answer stands for a clean file though it failed on it (its own log says so, before the answer).
  if (state.failuresLogged !== failures)
    throw new LspqError(
      'server_failed',
      `${session.client.spec.id} failed on ${path}${state.lastFailure ? `: ${state.lastFailure}` : ''}; its diagnostics are not known (see 'lspq daemon logs')`,
    );
  if (report.kind === DocumentDiagnosticReportKind.Unchanged) {
    if (previous) return previous.items;
    throw new LspqError(
      'server_failed',
      `${session.client.spec.id} said diagnostics were unchanged for a file it never reported`,
    );
  }
  if (report.resultId) session.docs.rememberPull(path, { resultId: report.resultId, items: report.items });
  return report.items;
}

/** gopls: diagnose_files returns once the files are diagnosed; the publishes precede its answer on the stream. */
async function goplsBarrier(session: Session, uris: string[], o: DiagnosticsOptions): Promise<void> {
  await session.client.request(
    Requests.executeCommand,
    { command: GOPLS_DIAGNOSE, arguments: [{ Files: uris }] },
    { timeoutMs: o.deadline(), budgetMs: o.budgetMs, signal: o.signal },
  );
}

/**
 * clangd: one versioned wave per version; the document's current version
 * is the one to wait for. A document it parsed before a file it depends on
 * changed (a header, on disk) is opened again: clangd says nothing new of
 * a version it has published.
 */
async function versioned(session: Session, path: string, uri: string, o: DiagnosticsOptions): Promise<void> {
  const client = session.client;
  // Closed, clangd clears the file's diagnostics with a publish of no version: only the new version counts then.
  const reopen =
    session.docs.outdated(path) && client.state.diagnostics.get(uri)?.version === session.docs.version(path);
  if (reopen) await session.docs.reopen(path);
  const version = session.docs.version(path);
  await client.waitFor(
    () => {
      const published = client.state.diagnostics.get(uri);
      return published !== undefined && (published.version === version || (!reopen && published.version === undefined));
    },
    o.deadline(),
    `diagnosing ${path}`,
    o.signal,
  );
}

const TsPlace = z.looseObject({ line: z.number(), offset: z.number() });
/** tsserver's own diagnostics, as typescript-language-server's tsserverRequest returns them. */
const TsDiagnosticsShape = z.array(
  z.looseObject({
    start: TsPlace,
    end: TsPlace,
    text: z.string(),
    code: z.optional(z.number()),
    category: z.string(),
    source: z.optional(z.string()),
    reportsUnnecessary: z.optional(z.boolean()),
    reportsDeprecated: z.optional(z.boolean()),
  }),
);
type TsDiagnostic = z.infer<typeof TsDiagnosticsShape>[number];

const TS_SEVERITY: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  suggestion: DiagnosticSeverity.Hint,
  message: DiagnosticSeverity.Information,
};

/** tsserver's positions are 1-based lines and UTF-16 offsets; the server's published form is what the user sees elsewhere. */
export function fromTsDiagnostic(d: TsDiagnostic): Diagnostic {
  const tags = [
    ...(d.reportsUnnecessary ? [DiagnosticTag.Unnecessary] : []),
    ...(d.reportsDeprecated ? [DiagnosticTag.Deprecated] : []),
  ];
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    message: d.text,
    severity: TS_SEVERITY[d.category] ?? DiagnosticSeverity.Error,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: d.source ?? 'typescript',
    ...(tags.length ? { tags } : {}),
  };
}

/** tsserver's answer, checked: one of another shape is a failure, never "no diagnostics". */
function tsBody(session: Session, answer: unknown): TsDiagnostic[] {
  const body = isRecord(answer) && 'body' in answer ? answer.body : answer;
  const checked = z.safeParse(TsDiagnosticsShape, body);
  if (checked.success) return checked.data;
  const wrong = firstIssue(checked.error, 'the answer', 'the shapes the protocol allows');
  throw new LspqError(
    'server_failed',
    `${session.client.spec.id} sent tsserver's diagnostics in a shape lspq does not know (${wrong}); see 'lspq daemon logs'`,
  );
}

/**
 * typescript-language-server publishes nothing for a file whose diagnostics
 * did not change, so no wave can be waited for; tsserver itself answers
 * the three passes it publishes synchronously, after every earlier change.
 */
async function tsserver(session: Session, path: string, o: DiagnosticsOptions): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const pass of ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync']) {
    const answer: unknown = await session.client.request(
      Requests.executeCommand,
      { command: TSSERVER_REQUEST, arguments: [pass, { file: path }] },
      { timeoutMs: o.deadline(), budgetMs: o.budgetMs, signal: o.signal },
    );
    out.push(...tsBody(session, answer).map(fromTsDiagnostic));
  }
  return out;
}

/**
 * Unversioned push without a barrier: once the server is ready, a publish
 * after the sync followed by a quiet spell, or a settle window with no
 * publish at all (nothing changed). A file answered before with nothing
 * changed anywhere since is answered from that.
 */
async function push(session: Session, path: string, uri: string, mark: number, o: DiagnosticsOptions): Promise<void> {
  const client = session.client;
  if (session.docs.diagnosedUnchanged(path)) return;
  let lastSeen = mark;
  let lastAt = Date.now();
  let readyAt: number | undefined;
  await client.waitFor(
    () => {
      const now = Date.now();
      const published = client.state.diagnostics.get(uri);
      if (published && published.sequence > lastSeen) {
        lastSeen = published.sequence;
        lastAt = now;
      }
      if (client.state.busy) {
        readyAt = undefined;
        return false;
      }
      readyAt ??= now;
      if (lastSeen > mark) return now - lastAt >= PUSH_QUIET_MS;
      return now - Math.max(readyAt, lastAt) >= PUSH_SETTLE_MS;
    },
    o.deadline(),
    `diagnosing ${path}`,
    o.signal,
    PUSH_QUIET_MS,
  );
}

/**
 * Tailwind CSS: one publish after every change of a file, an empty list
 * included, half a second after it (its debounce), over two seconds on a
 * cold project. The first publish after the text was sent, then a quiet
 * spell. A document sent before something else changed is sent again
 * under a new version (closed, it would be cleared by an empty publish).
 * A file the server said no project covers has nothing to wait for.
 */
async function pushEach(session: Session, path: string, uri: string, o: DiagnosticsOptions): Promise<void> {
  const { client, docs } = session;
  if (docs.diagnosedUnchanged(path)) return;
  const answered = (client.state.diagnostics.get(uri)?.sequence ?? 0) > (docs.sentAt(path) ?? 0);
  if (docs.outdated(path)) {
    // Its word on this text stands (a change elsewhere is nothing to it); sent again, it would not speak.
    if (client.spec.diagnosesTextAlone && answered) return;
    await docs.resend(path);
  }
  const sentAt = docs.sentAt(path) ?? 0;
  let lastAt: number | undefined;
  let lastSeen = sentAt;
  await client.waitFor(
    () => {
      if (client.state.unserved.has(path)) return true;
      const published = client.state.diagnostics.get(uri);
      if (published && published.sequence > lastSeen) {
        lastSeen = published.sequence;
        lastAt = Date.now();
      }
      return lastAt !== undefined && Date.now() - lastAt >= PUSH_QUIET_MS;
    },
    o.deadline(),
    `diagnosing ${path}`,
    o.signal,
    PUSH_QUIET_MS,
  );
}

/** Checks in a row that end having checked nothing: the crates are fresh, not the check cancelled. */
const UNWORKED_CHECKS = 2;

/**
 * How long after a check that ended having checked nothing no other may
 * begin for it to count as ended rather than cancelled. rust-analyzer ends
 * a check a later ask cancels just as it ends one of fresh crates, then
 * starts the next 50 ms after the last ask it takes together: under load
 * (six busy loops on two cores) the next began 120 to 640 ms after.
 */
const CHECK_SUCCESSOR_MS = 1_000;

/** rust-analyzer reports its cargo check as work under this token. */
const isCheck = (token: string | number) => String(token).includes('flycheck');

/** Whether rust-analyzer runs its check on save: on unless its settings turn checkOnSave off. */
export function checksOnSave(spec: Session['client']['spec']): boolean {
  const off = (o: unknown) => isRecord(o) && o.checkOnSave === false;
  return !off(spec.initializationOptions) && !off(spec.settings?.['rust-analyzer']);
}

/**
 * One file of each package among `paths` (its nearest Cargo.toml): a save
 * starts a check of the whole workspace (of its package, where
 * check.workspace is off), and every other save cancels and starts it again.
 */
function oneSavePerPackage(paths: string[]): string[] {
  const byPackage = new Map<string, string>();
  for (const path of paths) {
    let dir = dirname(path);
    while (dir !== dirname(dir) && !existsSync(join(dir, 'Cargo.toml'))) dir = dirname(dir);
    if (!byPackage.has(dir)) byPackage.set(dir, path);
  }
  return [...byPackage.values()];
}

/** How long a check asked for may take to begin before it is asked for again (under load one began 1.3 s after). */
const CHECK_START_MS = 3_000;
/** Checks asked for with rust-analyzer/runFlycheck before saves are tried (check.workspace off: it starts none). */
const RUN_CHECK_ASKS = 2;
/** rust-analyzer's own notification: with no document, every workspace's check starts again. */
const RunFlycheck = new NotificationType<{ textDocument: null }>('rust-analyzer/runFlycheck');

/**
 * rust-analyzer: its own diagnostics are pulled, cargo check's are pushed
 * once a check ends. Unless nothing changed since the files were last
 * checked, a check is asked for with rust-analyzer/runFlycheck, which
 * starts one at once; a save starts it from a task that any change
 * arriving meanwhile cancels without a word (no check at all: diag waited
 * out its deadline). A check that begins after the ask and checks
 * something is awaited, however late it begins; one that has not begun
 * within CHECK_START_MS is asked for again. A check that ends having
 * checked nothing was cancelled or found the crates fresh: it counts only
 * once no other began within CHECK_SUCCESSOR_MS, and fresh only when the
 * next ask's ends so too. Then both kinds are merged.
 */
async function pullAndCheck(session: Session, paths: string[], o: DiagnosticsOptions) {
  const client = session.client;
  const stale = paths.filter((p) => !session.docs.diagnosedUnchanged(p));
  const checking = () => client.state.progressTokens.some(isCheck);
  if (stale.length > 0 && checksOnSave(client.spec)) {
    let since = 0;
    let askedAt = 0;
    let asks = 0;
    const ask = async () => {
      since = client.state.progressBegun;
      askedAt = Date.now();
      if (++asks <= RUN_CHECK_ASKS) await client.sendNotification(RunFlycheck, { textDocument: null });
      else for (const p of oneSavePerPackage(stale)) await session.docs.saved(p);
    };
    await ask();
    for (let unworked = 0; ; ) {
      const last = () => client.state.endedSince(isCheck, since).at(-1);
      const unstarted = () => !client.state.begunSince(isCheck, since) && Date.now() - askedAt >= CHECK_START_MS;
      // Ended with none begun since: a check that checked something at once; one that did not, after a spell.
      const settled = () => {
        const end = last();
        return !checking() && end !== undefined && (end.worked || Date.now() - end.at >= CHECK_SUCCESSOR_MS);
      };
      await client.waitFor(() => settled() || unstarted(), o.deadline(), 'cargo check', o.signal, 250);
      const end = last();
      if (end === undefined) {
        await ask();
        continue;
      }
      if (end.worked || ++unworked >= UNWORKED_CHECKS) break;
      await ask();
    }
  }
  if (stale.length > 0) await client.waitFor(() => !checking(), o.deadline(), 'cargo check', o.signal);
  const out = new Map<string, Diagnostic[]>();
  for (const path of paths) {
    const uri = session.docs.uri(path);
    const own = await pull(session, path, uri, o);
    const checked = client.state.diagnostics.get(uri)?.diagnostics ?? [];
    // The same error found by both (one code at one place): the compiler's words are kept.
    const key = (d: Diagnostic) => `${d.range.start.line}:${d.range.start.character}:${d.code ?? d.message}`;
    const seen = new Set(checked.map(key));
    out.set(path, [...own.filter((d) => !seen.has(key(d))), ...checked]);
    session.docs.markDiagnosed(path);
  }
  return out;
}

/**
 * The complete diagnostics of open documents, keyed by path. `marks` holds,
 * per path, the server's publish sequence from before the documents were
 * synced: a publish after it is news.
 */
export async function completeDiagnostics(
  session: Session,
  paths: string[],
  marks: Map<string, number>,
  o: DiagnosticsOptions,
): Promise<Map<string, Diagnostic[]>> {
  const strategy = strategyFor(session);
  const uri = (path: string) => session.docs.uri(path);
  const out = new Map<string, Diagnostic[]>();
  if (strategy === 'pull-and-check' && !o.ownOnly) return pullAndCheck(session, paths, o);
  if (strategy === 'pull' || strategy === 'pull-and-check')
    return new Map(
      await Promise.all(paths.map(async (path) => [path, await pull(session, path, uri(path), o)] as const)),
    );
  if (strategy === 'tsserver') {
    for (const path of paths) out.set(path, await tsserver(session, path, o));
    return out;
  }
  if (strategy === 'gopls-barrier')
    await goplsBarrier(session, [...new Set([...paths, ...(o.views ?? [])])].map(uri), o);
  else if (strategy === 'versioned') for (const path of paths) await versioned(session, path, uri(path), o);
  else if (strategy === 'push-each') await Promise.all(paths.map((path) => pushEach(session, path, uri(path), o)));
  else await Promise.all(paths.map((path) => push(session, path, uri(path), marks.get(path) ?? 0, o)));
  for (const path of paths) {
    const unserved = session.client.state.unserved.has(path);
    out.set(path, unserved ? [] : (session.client.state.diagnostics.get(uri(path))?.diagnostics ?? []));
    session.docs.markDiagnosed(path);
  }
  return out;
}

/** The publish sequence of each path's document now: taken before a sync, handed to completeDiagnostics. */
export function publishMarks(session: Session, paths: string[]): Map<string, number> {
  return new Map(paths.map((p) => [p, session.client.state.diagnostics.get(session.docs.uri(p))?.sequence ?? 0]));
}
