/**
 * What a command asks the engine's language-server half and what it gets
 * back: plain objects, handed from the command half to the handlers in one
 * process (they never cross the socket; the rendered output does). No LSP
 * type appears here; paths are absolute and positions are 1-based code
 * points, already converted by the handlers.
 */
import type { LineSpec, TargetSpec } from './protocol/target';

/** The facts about the caller every question carries to the handlers. */
/** A server and the root it answered for. */
export interface Answered {
  server: string;
  root: string;
}

/** The distinct pairs, in order. */
export function answeredBy(sessions: { client: { spec: { id: string }; root: string } }[]): Answered[] {
  const seen = new Map<string, Answered>();
  for (const s of sessions)
    seen.set(`${s.client.spec.id}\0${s.client.root}`, { server: s.client.spec.id, root: s.client.root });
  return [...seen.values()];
}

/** --verify: after writing, put everything back if the edit introduced an error (verifyAll: anywhere in the workspace). */
export interface Verify {
  verify?: boolean;
  verifyAll?: boolean;
}

/** What --verify found: the errors the edit introduced, and whether it was put back for them. */
export interface Verification {
  introduced: Diagnostic[];
  reverted: boolean;
}

export interface CallerContext {
  cwd: string;
  env: Record<string, string>;
  root?: string;
  server?: string;
  timeoutMs?: number;
  limit: number;
  /** -B/-A/-C: lines of context around each location, diagnostic or call. */
  context?: { before: number; after: number };
  /** A SCIP index: which (else LSPQ_INDEX, else .lspq/index.scip), and whether only it answers, or never. */
  index?: { file?: string; mode: 'auto' | 'only' | 'off' };
  /** The id the command gave its edit: the journal's, asked after if the daemon dies under it. */
  editId?: string;
}

/** Where an answer came from, and (from an index) the files changed since it was built. */
export interface Sourced {
  source?: 'index' | 'server';
  stale?: string[];
}

/** Lines around a place, as the servers see the file: the window, the place's own line included. */
export interface Context {
  line: number;
  lines: string[];
}

/** A location's whole declaration (--body): its lines, cut at --max-lines. */
export interface Body {
  line: number;
  endLine: number;
  text: string;
  truncated: boolean;
}

export type LocationOp = 'def' | 'typedef' | 'impls' | 'refs';

/** What a command asks the engine's handlers, by operation. */
export type Query =
  | { op: LocationOp; target: TargetSpec; includeDeclaration?: boolean; body?: { maxLines: number } }
  | { op: 'hover'; target: TargetSpec }
  | { op: 'symbols'; path: string; kinds?: string[] }
  | { op: 'wsymbols'; query: string; kinds?: string[] }
  | { op: 'calls'; target: TargetSpec; direction: CallDirection; depth: number }
  | {
      op: 'diag';
      files: string[];
      all: boolean;
      severity?: Severity;
      staged?: boolean;
      changed?: boolean;
      /** Only what is new since this revision: the same servers asked about its content too. */
      since?: string;
      /** Only diagnostics on lines added or changed since `since` (else HEAD). */
      changedLines?: boolean;
    }
  | { op: 'callPath'; from: TargetSpec; to: TargetSpec; depth: number }
  | { op: 'servers' }
  | { op: 'serversFor'; file: string }
  | { op: 'fmt'; files: string[]; lines?: { start: number; end: number }; write: boolean }
  | ({ op: 'rename'; target: TargetSpec; newName: string; write: boolean; allowOutside: boolean } & Verify)
  /** Builds a SCIP index of the project at `root` (default: the checkout's top) into `out`. */
  | { op: 'index'; root?: string; out?: string }
  /** Moves a file or folder; `update`: with the servers' edits to what imports it. */
  | ({ op: 'mv'; from: string; to: string; update: boolean; write: boolean; allowOutside: boolean } & Verify)
  | ({
      op: 'actions';
      place: TargetSpec | LineSpec;
      kinds?: string[];
      apply?: number | 'preferred';
      write: boolean;
      allowOutside: boolean;
      /** List the actions the server offers disabled too, with why. */
      all?: boolean;
    } & Verify);

export type Op = Query['op'];

/** The answer to each operation: a query's result type follows from its name. */
export interface Answers {
  def: LocationsResult;
  typedef: LocationsResult;
  impls: LocationsResult;
  refs: LocationsResult;
  hover: HoverResult;
  symbols: SymbolsResult;
  wsymbols: WorkspaceSymbolsResult;
  calls: CallsResult;
  callPath: CallPathResult;
  diag: DiagResult;
  servers: ServersResult;
  serversFor: ServersForResult;
  fmt: FmtResult;
  rename: RenameResult;
  mv: MvResult;
  index: IndexResult;
  actions: ActionsResult;
}

export type QueryFor<O extends Op> = Extract<Query, { op: O }> & CallerContext;
export type QueryRequest = Query & CallerContext;

/** How a command has its questions answered: by the daemon's handlers, or the engine loaded in the command's process. */
export type Answerer = <O extends Op>(request: QueryFor<O>) => Promise<Answers[O]>;

// ---- results ---------------------------------------------------------------

export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** The order of every list of places lspq prints: by path (as bytes, like sort(1) in the C locale), then line, then column. */
export function byPlace(
  a: { path: string; line: number; column: number },
  b: { path: string; line: number; column: number },
): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column;
}

export interface Location extends Span {
  path: string;
  preview: string;
  context?: Context;
  /** With --body: the declaration there, or null where the server gives no symbol. */
  body?: Body | null;
}

export interface ResolvedTarget {
  path: string;
  line: number;
  column: number;
  symbol?: string;
}

export interface LocationsResult extends Sourced {
  op: LocationOp;
  target: ResolvedTarget;
  server: string;
  root: string;
  locations: Location[];
  total: number;
  truncated: boolean;
}

export interface HoverResult extends Sourced {
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
  context?: Context;
}

export interface WorkspaceSymbolsResult extends Sourced {
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
  context?: Context;
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

/** One call of a chain: where the caller calls the callee. */
export interface CallHop {
  caller: CallItem;
  callee: CallItem;
  /** The call sites, in the caller's file. */
  ranges: Span[];
}

export interface CallPathResult {
  from: CallItem;
  to: CallItem;
  server: string;
  root: string;
  /** The shortest chains from `from` to `to`, each its calls in order. */
  chains: CallHop[][];
  total: number;
  truncated: boolean;
}

/** Worst first: a threshold takes its own severity and those before it. */
export const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Diagnostic extends Span {
  path: string;
  severity: Severity;
  message: string;
  source?: string;
  code?: string | number;
  context?: Context;
  /** With --since: not present at that revision. */
  new?: boolean;
}

export interface DiagResult {
  diagnostics: Diagnostic[];
  summary: Record<Severity, number>;
  files: string[];
  total: number;
  truncated: boolean;
  /** Files whose diagnostics could not be completed in time; never reported clean. */
  incomplete: string[];
  /** Files lspq could not hand a server (binary, too large), left out with why; never reported clean either. */
  skipped: { path: string; reason: string }[];
  /** Each server asked and the root it ran for, in the order asked. */
  answered: Answered[];
  /** With --since: the revision compared with, and the diagnostics already present there (not shown, not judged). */
  since?: { rev: string; present: Record<Severity, number> };
}

export interface ServerInfo {
  id: string;
  name: string;
  languages: string[];
  found: boolean;
  command?: string;
  /** The rule that found it: a project's node_modules/.bin, its Python environment, a tool folder, PATH. */
  foundBy?: string;
  version?: string;
  install: string;
  roots: string[];
  /** Binaries of it the repository carries that were left out, not trusted (`lspq trust` lets them run). */
  untrusted?: string[];
}

/** What one server answers for a file, read from its own initialize result. */
export interface ServerForFile {
  id: string;
  root: string;
  path: string;
  /** The rule that found the binary: a project's node_modules/.bin, its Python environment, a tool folder, PATH. */
  foundBy: string;
  /** The Python environment a Python server was given (VIRTUAL_ENV), when one was found. */
  python?: string;
  version?: string;
  /** lspq's commands (and fmt-range, symbols-w) and whether this server can answer each. */
  answers: Record<string, boolean>;
  /** How lspq knows its diagnostics are complete (docs/servers.md). */
  diagnostics: string;
}

export interface ServersForResult {
  file: string;
  servers: ServerForFile[];
  /** Configured for the file but not installed, with the command that installs each. */
  missing: { id: string; install: string }[];
  /** The repository's own code left out for the file, not trusted: its .lsp.json, binaries it carries. */
  untrusted: string[];
}

export interface ServersResult {
  servers: ServerInfo[];
  /** The repository's own .lsp.json, left out until trusted. */
  untrusted: string[];
}

// ---- edits -----------------------------------------------------------------

/** One file's part of an edit: the text before and after (null: created or deleted), for diffs; `changes` counts its text edits. */
export interface FileEdit {
  path: string;
  changes: number;
  before: string | null;
  after: string | null;
  renamedTo?: string;
}

export interface FmtFile {
  path: string;
  changed: boolean;
  edits: number;
  before: string;
  after: string;
}

export interface FmtResult {
  answered: Answered[];
  files: FmtFile[];
  written: boolean;
}

export interface RenameResult {
  target: ResolvedTarget;
  server: string;
  root: string;
  newName: string;
  files: FileEdit[];
  applied: boolean;
  /** Places in files the edit did not touch that still write the old name (outside what the server knows). */
  unrenamed: Location[];
  verification?: Verification;
}

export interface IndexResult {
  file: string;
  root: string;
  documents: number;
  bytes: number;
  indexers: { name: string; ms: number }[];
  commit?: string;
}

export interface MvResult {
  moves: { from: string; to: string }[];
  /** The edits to what imports the moved files (and to the moved files' own imports), at the paths after the move. */
  files: FileEdit[];
  applied: boolean;
  /** The servers asked for the edits, and their roots. */
  servers: Answered[];
  verification?: Verification;
}

export interface CodeActionItem {
  index: number;
  title: string;
  kind: string;
  preferred: boolean;
  /** The files it would change, when the server said without running anything. */
  edits: { path: string; changes: number }[];
  /** Why the server offers it but it cannot be applied now. */
  disabled?: string;
  /** The server that offers it (the file's servers are all asked). */
  server: string;
}

export interface ActionsResult {
  path: string;
  span: Span;
  server: string;
  root: string;
  /** Every server asked, in order; `server` and `root` name the first. */
  servers: Answered[];
  actions: CodeActionItem[];
  /** Actions the server offers disabled, left out of the list (all of them are listed with --all). */
  hidden: number;
  /** The action applied: the files its edits change, and the pages its command asked to show (a URL to open). */
  applied: null | {
    index: number;
    title: string;
    server: string;
    files: FileEdit[];
    written: boolean;
    urls: string[];
    verification?: Verification;
  };
}
