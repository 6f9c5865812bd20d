/**
 * A fake rust-analyzer whose cargo check, once asked for (a save or
 * rust-analyzer/runFlycheck), is cancelled twice before the check that
 * runs to its end: as rust-analyzer does when asks reach it spread out (on
 * a loaded machine, after a git checkout), it ends a cancelled check with
 * no report, the same `end` it sends for a check of fresh crates, and
 * begins the next a moment later. The check that ends reports its crate
 * and publishes an error in `src/uses/u0.rs`. The first ask starts
 * nothing, as a save does whose task a change cancels. It loads like
 * rust-analyzer (Roots Scanned, then quiescent) and offers pull diagnostics
 * (always none: its own analysis sees nothing wrong).
 */
import {
  createMessageConnection,
  DidSaveTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';

if (process.argv.includes('--version')) {
  console.log('rust-analyzer 0.0.0 (fake: cancels its checks)');
  process.exit(0);
}

const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
let root = '';
const CHECK = 'rust-analyzer/flycheck/0';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const progress = (token: string, value: object) =>
  connection.sendProgress(WorkDoneProgress.type, token, value as never);

connection.onRequest(InitializeRequest.type, (params) => {
  root = decodeURIComponent(new URL(params.rootUri ?? params.workspaceFolders?.[0]?.uri ?? 'file:///').pathname);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Full, save: true },
      diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false },
    },
  };
});

connection.onNotification(InitializedNotification.type, async () => {
  await connection.sendRequest(WorkDoneProgressCreateRequest.type, { token: 'rustAnalyzer/Roots Scanned' });
  progress('rustAnalyzer/Roots Scanned', { kind: 'begin', title: 'Roots Scanned' });
  progress('rustAnalyzer/Roots Scanned', { kind: 'end' });
  await connection.sendNotification('experimental/serverStatus', { health: 'ok', quiescent: true });
});

connection.onRequest(DocumentDiagnosticRequest.type, () => ({ kind: 'full' as const, items: [] }));

/** A run of checks under way: the saves of one burst start one run. */
let checking = false;

let asks = 0;

async function check(): Promise<void> {
  if (++asks === 1 || checking) return;
  checking = true;
  await connection.sendRequest(WorkDoneProgressCreateRequest.type, { token: CHECK });
  for (let cancelled = 0; cancelled < 2; cancelled++) {
    progress(CHECK, { kind: 'begin', title: 'cargo check', cancellable: true });
    progress(CHECK, { kind: 'end' });
    await sleep(150);
  }
  progress(CHECK, { kind: 'begin', title: 'cargo check', cancellable: true });
  await sleep(300);
  await connection.sendNotification(PublishDiagnosticsNotification.type, {
    uri: `file://${root}/src/uses/u0.rs`,
    diagnostics: [
      {
        range: { start: { line: 2, character: 4 }, end: { line: 2, character: 10 } },
        severity: 1,
        code: 'E0425',
        source: 'rustc',
        message: 'cannot find function `helper` in this scope',
      },
    ],
  });
  progress(CHECK, { kind: 'report', cancellable: true, message: 'bulk (lib)' });
  progress(CHECK, { kind: 'end' });
  checking = false;
}

connection.onNotification(DidSaveTextDocumentNotification.type, check);
connection.onNotification('rust-analyzer/runFlycheck', check);

connection.onRequest(ShutdownRequest.type, () => undefined);
connection.onNotification(ExitNotification.type, () => process.exit(0));
connection.onClose(() => process.exit(0));
connection.listen();
