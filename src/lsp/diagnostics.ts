/**
 * Complete diagnostics for open documents, by each server's real signal
 * (see lsp-facts: "Diagnostics: when is the answer complete?"). A fixed
 * sleep is wrong both ways; when a bound is reached the file is reported
 * incomplete, never clean.
 */
import {
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  ExecuteCommandRequest,
  type Diagnostic,
} from 'vscode-languageserver-protocol';
import { LspqError } from '../errors';
import type { Session } from './manager';

/** After a push wave, this long without another publish for the file means the wave is over. */
export const PUSH_QUIET_MS = 250;
const GOPLS_DIAGNOSE = 'gopls.diagnose_files';

export interface DiagnosticsOptions {
  deadline: () => number;
  budgetMs?: number;
  signal?: AbortSignal;
}

export type Strategy = 'pull' | 'gopls-barrier' | 'versioned' | 'wave';

/** Pull where the server offers it (statically or by registration), else the server's push signal. */
export function strategyFor(session: Session): Strategy {
  const client = session.client;
  if (client.capabilities.diagnosticProvider) return 'pull';
  for (const r of client.registrations.values()) if (r.method === DocumentDiagnosticRequest.method) return 'pull';
  if (client.capabilities.executeCommandProvider?.commands.includes(GOPLS_DIAGNOSE)) return 'gopls-barrier';
  if (client.spec.id === 'clangd') return 'versioned';
  return 'wave';
}

const pulled = new WeakMap<Session, Map<string, { resultId: string; items: Diagnostic[] }>>();

async function pull(session: Session, uri: string, o: DiagnosticsOptions): Promise<Diagnostic[]> {
  const cache = pulled.get(session) ?? new Map<string, { resultId: string; items: Diagnostic[] }>();
  pulled.set(session, cache);
  const previous = cache.get(uri);
  const report = await session.client.request(
    DocumentDiagnosticRequest.type,
    { textDocument: { uri }, ...(previous ? { previousResultId: previous.resultId } : {}) },
    { timeoutMs: o.deadline(), budgetMs: o.budgetMs, signal: o.signal },
  );
  if (report.kind === DocumentDiagnosticReportKind.Unchanged) {
    if (previous) return previous.items;
    throw new LspqError('server_failed', `${session.client.spec.id} said diagnostics were unchanged for a file it never reported`);
  }
  if (report.resultId) cache.set(uri, { resultId: report.resultId, items: report.items });
  return report.items;
}

/** gopls: diagnose_files returns once the files are diagnosed; the publishes precede its answer on the stream. */
async function goplsBarrier(session: Session, uris: string[], o: DiagnosticsOptions): Promise<void> {
  await session.client.request(
    ExecuteCommandRequest.type,
    { command: GOPLS_DIAGNOSE, arguments: [{ Files: uris }] },
    { timeoutMs: o.deadline(), budgetMs: o.budgetMs, signal: o.signal },
  );
}

/** clangd: one versioned wave per version; the document's current version is the one to wait for. */
async function versioned(session: Session, path: string, uri: string, o: DiagnosticsOptions): Promise<void> {
  const client = session.client;
  const version = session.docs.version(path);
  await client.waitFor(
    () => {
      const published = client.diagnostics.get(uri);
      return published !== undefined && (published.version === undefined || published.version === version);
    },
    o.deadline(),
    `diagnosing ${path}`,
    o.signal,
  );
}

/**
 * Unversioned push (tsserver and the rest): ask for a fresh wave by re-sending
 * the same text as a new version, then wait until the server has finished
 * loading, a publish for the file arrived after that, and the file is quiet.
 */
async function wave(session: Session, path: string, uri: string, o: DiagnosticsOptions): Promise<void> {
  const client = session.client;
  const before = client.diagnostics.get(uri)?.sequence ?? 0;
  await session.docs.resend(path);
  let lastSeen = before;
  let lastAt = Date.now();
  await client.waitFor(
    () => {
      const published = client.diagnostics.get(uri);
      if (published && published.sequence !== lastSeen) {
        lastSeen = published.sequence;
        lastAt = Date.now();
      }
      return !client.busy && lastSeen > before && Date.now() - lastAt >= PUSH_QUIET_MS;
    },
    o.deadline(),
    `diagnosing ${path}`,
    o.signal,
    PUSH_QUIET_MS,
  );
}

/** The complete diagnostics of open documents, keyed by path. */
export async function completeDiagnostics(session: Session, paths: string[], o: DiagnosticsOptions): Promise<Map<string, Diagnostic[]>> {
  const strategy = strategyFor(session);
  const uris = paths.map((p) => session.docs.uri(p));
  const out = new Map<string, Diagnostic[]>();
  if (strategy === 'pull') {
    for (const [i, path] of paths.entries()) out.set(path, await pull(session, uris[i]!, o));
    return out;
  }
  if (strategy === 'gopls-barrier') await goplsBarrier(session, uris, o);
  else if (strategy === 'versioned') for (const [i, path] of paths.entries()) await versioned(session, path, uris[i]!, o);
  else await Promise.all(paths.map((path, i) => wave(session, path, uris[i]!, o)));
  for (const [i, path] of paths.entries()) out.set(path, session.client.diagnostics.get(uris[i]!)?.diagnostics ?? []);
  return out;
}
