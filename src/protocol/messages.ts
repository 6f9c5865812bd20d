/**
 * What a command asks and what it gets back: plain objects that cross the
 * daemon socket. No LSP type appears here; paths are absolute and positions
 * are 1-based code points, already converted by the daemon.
 */
import type { ErrorPayload } from '../errors';
import type { TargetSpec } from './target';

/** Bumped whenever these shapes change; the build id covers the rest. */
export const PROTOCOL_VERSION = 2;

export interface CallerContext {
  cwd: string;
  env: Record<string, string>;
  root?: string;
  server?: string;
  timeoutMs?: number;
  limit: number;
}

export type LocationOp = 'def' | 'typedef' | 'impls' | 'refs';

export type Query =
  | { op: LocationOp; target: TargetSpec; includeDeclaration?: boolean }
  | { op: 'hover'; target: TargetSpec }
  | { op: 'symbols'; path: string; kinds?: string[] }
  | { op: 'wsymbols'; query: string; kinds?: string[] }
  | { op: 'calls'; target: TargetSpec; direction: CallDirection; depth: number }
  | { op: 'diag'; files: string[]; all: boolean; severity?: Severity; staged?: boolean; changed?: boolean }
  | { op: 'servers' };

export type QueryRequest = Query & CallerContext;

export type ControlRequest =
  | { op: 'status' }
  | { op: 'stop' }
  | { op: 'ping' };

/**
 * A whole command line for the daemon to run (the questions about code):
 * parsed, answered and rendered there, so the command only passes it on
 * and prints what comes back (a CommandOutput).
 */
export interface CommandLineRequest {
  op: 'run';
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  color: boolean;
}

/** One line of JSON from the command to the daemon. */
export interface Envelope {
  protocol: number;
  build: string;
  request: QueryRequest | ControlRequest | CommandLineRequest;
}

/** Lines the daemon may send before the reply, for long answers. */
export interface ProgressLine {
  progress: { done: number; total: number; what: string };
}

/** One line of JSON from the daemon back. */
export type Reply =
  | { ok: true; result: unknown }
  | { ok: false; error: ErrorPayload }
  | { ok: false; mismatch: { build: string; protocol: number } };

// ---- results ---------------------------------------------------------------

export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface Location extends Span {
  path: string;
  preview: string;
}

export interface ResolvedTarget {
  path: string;
  line: number;
  column: number;
  symbol?: string;
}

export interface LocationsResult {
  op: LocationOp;
  target: ResolvedTarget;
  server: string;
  root: string;
  locations: Location[];
  total: number;
  truncated: boolean;
}

export interface HoverResult {
  target: ResolvedTarget;
  server: string;
  root: string;
  contents: string;
  range: Span | null;
}

export interface DocumentSymbol extends Span {
  name: string;
  kind: string;
  detail?: string;
  children: DocumentSymbol[];
}

export interface SymbolsResult {
  path: string;
  server: string;
  root: string;
  symbols: DocumentSymbol[];
  total: number;
  truncated: boolean;
}

export interface WorkspaceSymbol {
  name: string;
  kind: string;
  container?: string;
  path: string;
  line: number;
  column: number;
}

export interface WorkspaceSymbolsResult {
  query: string;
  server: string;
  root: string;
  symbols: WorkspaceSymbol[];
  total: number;
  truncated: boolean;
}

export type CallDirection = 'incoming' | 'outgoing';

export interface CallItem {
  name: string;
  kind: string;
  path: string;
  line: number;
  column: number;
  detail?: string;
}

export interface CallNode {
  item: CallItem;
  ranges: Span[];
  calls: CallNode[];
}

export interface CallsResult {
  item: CallItem;
  direction: CallDirection;
  server: string;
  root: string;
  calls: CallNode[];
  total: number;
  truncated: boolean;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface Diagnostic extends Span {
  path: string;
  severity: Severity;
  message: string;
  source?: string;
  code?: string | number;
}

export interface DiagResult {
  diagnostics: Diagnostic[];
  summary: Record<Severity, number>;
  files: string[];
  total: number;
  truncated: boolean;
  /** Files whose diagnostics could not be completed in time; never reported clean. */
  incomplete: string[];
  /** The servers asked and the roots they ran for, in the order asked. */
  servers: string[];
  roots: string[];
}

export interface ServerInfo {
  id: string;
  name: string;
  languages: string[];
  found: boolean;
  command?: string;
  version?: string;
  install: string;
  roots: string[];
}

export interface ServersResult {
  servers: ServerInfo[];
}

export interface HeldServer {
  id: string;
  root: string;
  binary: string;
  /** The caller's environment variables that key the pool (PATH, VIRTUAL_ENV, GOFLAGS...). */
  env: Record<string, string>;
  pid: number | undefined;
  uptimeSeconds: number;
  memoryBytes: number | null;
  requests: number;
  state: string;
}

export interface DaemonStatus {
  pid: number;
  build: string;
  socket: string;
  uptimeSeconds: number;
  memoryBytes: number;
  servers: HeldServer[];
  broken: { id: string; root: string }[];
}
