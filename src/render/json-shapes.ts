/**
 * Every `--json` answer's shape, written once as a zod schema: its type is
 * what the JSON renderers return (so the code cannot drift from it without
 * failing to compile), and `lspq schema` prints it as JSON Schema (draft
 * 2020-12) for jq and agent authors; the test suite checks every JSON
 * document it sees against that schema.
 */
import * as z from 'zod/mini';

const int = z.int();
const Span = { line: int, column: int, endLine: int, endColumn: int };
export const SpanShape = z.object(Span);

export const ContextShape = z.object({ line: int, lines: z.array(z.string()) });
export const BodyShape = z.object({ line: int, endLine: int, text: z.string(), truncated: z.boolean() });

export const LocationShape = z.object({
  path: z.string(),
  ...Span,
  preview: z.string(),
  context: z.optional(ContextShape),
  body: z.optional(z.nullable(BodyShape)),
});

export const TargetShape = z.object({ path: z.string(), line: int, column: int, symbol: z.optional(z.string()) });

/** Every answer from a language server names the server and the root it used. */
const answered = { server: z.string(), root: z.string() };
const cut = { total: int, truncated: z.boolean() };

/** Where an answer came from: a SCIP index (with the files changed since it was built) or a live server. */
const sourced = {
  source: z.optional(z.enum(['index', 'server'])),
  stale: z.optional(z.array(z.string())),
};

export const LocationsShape = z.object({
  target: TargetShape,
  ...answered,
  locations: z.array(LocationShape),
  ...cut,
  ...sourced,
});

export const HoverShape = z.object({
  target: TargetShape,
  ...answered,
  contents: z.string(),
  range: z.nullable(SpanShape),
  ...sourced,
});

interface DocumentSymbolJson {
  name: string;
  kind: string;
  detail?: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  children: DocumentSymbolJson[];
}
export const DocumentSymbolShape: z.ZodMiniType<DocumentSymbolJson> = z.object({
  name: z.string(),
  kind: z.string(),
  detail: z.optional(z.string()),
  ...Span,
  get children() {
    return z.array(DocumentSymbolShape);
  },
});

export const SymbolsShape = z.object({
  path: z.string(),
  ...answered,
  symbols: z.array(DocumentSymbolShape),
  ...cut,
});

export const WorkspaceSymbolsShape = z.object({
  query: z.string(),
  ...answered,
  symbols: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      container: z.optional(z.string()),
      path: z.string(),
      line: int,
      column: int,
      context: z.optional(ContextShape),
    }),
  ),
  ...cut,
  ...sourced,
});

export const CallItemShape = z.object({
  name: z.string(),
  kind: z.string(),
  path: z.string(),
  line: int,
  column: int,
  detail: z.optional(z.string()),
});

interface CallNodeJson {
  item: z.infer<typeof CallItemShape>;
  ranges: z.infer<typeof SpanShape>[];
  context?: z.infer<typeof ContextShape>;
  calls: CallNodeJson[];
}
export const CallNodeShape: z.ZodMiniType<CallNodeJson> = z.object({
  item: CallItemShape,
  ranges: z.array(SpanShape),
  context: z.optional(ContextShape),
  get calls() {
    return z.array(CallNodeShape);
  },
});

export const CallsShape = z.object({
  item: CallItemShape,
  direction: z.enum(['incoming', 'outgoing']),
  ...answered,
  calls: z.array(CallNodeShape),
  ...cut,
});

export const CallPathShape = z.object({
  from: CallItemShape,
  to: CallItemShape,
  ...answered,
  chains: z.array(z.array(z.object({ caller: CallItemShape, callee: CallItemShape, ranges: z.array(SpanShape) }))),
  ...cut,
});

export const SeverityShape = z.enum(['error', 'warning', 'info', 'hint']);

export const DiagnosticShape = z.object({
  path: z.string(),
  ...Span,
  severity: SeverityShape,
  message: z.string(),
  source: z.optional(z.string()),
  code: z.optional(z.union([z.string(), z.number()])),
  context: z.optional(ContextShape),
  /** With --since: not present at that revision. */
  new: z.optional(z.boolean()),
});

/** Which server answered for which root: one pair each, never two lists to pair by position. */
export const ServerRootShape = z.object({ server: z.string(), root: z.string() });

export const DiagShape = z.object({
  diagnostics: z.array(DiagnosticShape),
  summary: z.object({ error: int, warning: int, info: int, hint: int }),
  files: z.array(z.string()),
  ...cut,
  incomplete: z.array(z.string()),
  /** Files that could not be handed a server (binary, too large): left out, with why. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  /** The first server and root asked; `servers` lists every one. */
  ...answered,
  servers: z.array(ServerRootShape),
  /** With --since: the revision compared with, and the diagnostics already present there (not counted in summary). */
  since: z.optional(
    z.object({ rev: z.string(), present: z.object({ error: int, warning: int, info: int, hint: int }) }),
  ),
});

const FileChangesShape = z.object({ path: z.string(), changes: int, newPath: z.optional(z.string()) });

export const FmtShape = z.object({
  files: z.array(z.object({ path: z.string(), changed: z.boolean(), edits: int, lines: int })),
  written: z.boolean(),
  ...answered,
  servers: z.array(ServerRootShape),
});

/** --verify: the errors the edit introduced, and whether every file was put back for them. */
export const VerificationShape = z.object({ introduced: z.array(DiagnosticShape), reverted: z.boolean() });

export const RenameShape = z.object({
  target: TargetShape,
  ...answered,
  newName: z.string(),
  files: z.array(FileChangesShape),
  applied: z.boolean(),
  /** Places in files the edit did not touch that still write the old name. */
  unrenamed: z.array(LocationShape),
  verification: z.optional(VerificationShape),
});

export const IndexShape = z.object({
  file: z.string(),
  root: z.string(),
  documents: int,
  bytes: int,
  indexers: z.array(z.object({ name: z.string(), ms: int })),
  commit: z.optional(z.string()),
});

export const MvShape = z.object({
  moves: z.array(z.object({ from: z.string(), to: z.string() })),
  files: z.array(FileChangesShape),
  applied: z.boolean(),
  servers: z.array(ServerRootShape),
  verification: z.optional(VerificationShape),
});

export const ActionsShape = z.object({
  path: z.string(),
  ...Span,
  ...answered,
  servers: z.array(ServerRootShape),
  actions: z.array(
    z.object({
      index: int,
      title: z.string(),
      kind: z.string(),
      preferred: z.boolean(),
      edits: z.array(z.object({ path: z.string(), changes: int })),
      disabled: z.optional(z.string()),
      server: z.string(),
    }),
  ),
  hidden: int,
  applied: z.nullable(
    z.object({
      index: int,
      title: z.string(),
      server: z.string(),
      files: z.array(z.string()),
      written: z.boolean(),
      /** Pages the action's command asked to show (gopls's documentation): addresses to open. */
      urls: z.array(z.string()),
      verification: z.optional(VerificationShape),
    }),
  ),
});

export const ServersShape = z.object({
  servers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      languages: z.array(z.string()),
      found: z.boolean(),
      command: z.optional(z.string()),
      foundBy: z.optional(z.string()),
      version: z.optional(z.string()),
      install: z.string(),
      roots: z.array(z.string()),
      /** Binaries of it the repository carries that were left out, not trusted. */
      untrusted: z.optional(z.array(z.string())),
    }),
  ),
  /** The repository's own .lsp.json, left out until trusted. */
  untrusted: z.array(z.string()),
});

export const ServersForShape = z.object({
  file: z.string(),
  servers: z.array(
    z.object({
      id: z.string(),
      root: z.string(),
      path: z.string(),
      foundBy: z.string(),
      python: z.optional(z.string()),
      version: z.optional(z.string()),
      answers: z.record(z.string(), z.boolean()),
      diagnostics: z.string(),
    }),
  ),
  missing: z.array(z.object({ id: z.string(), install: z.string() })),
  /** The repository's own code left out for the file, not trusted. */
  untrusted: z.array(z.string()),
});

export const DaemonStatusShape = z.union([
  z.object({ running: z.literal(false) }),
  z.object({
    running: z.literal(true),
    pid: int,
    build: z.string(),
    socket: z.string(),
    uptimeSeconds: z.number(),
    memoryBytes: z.number(),
    heapBytes: z.number(),
    servers: z.array(
      z.object({
        id: z.string(),
        root: z.string(),
        binary: z.string(),
        env: z.record(z.string(), z.string()),
        pid: z.optional(int),
        uptimeSeconds: z.number(),
        memoryBytes: z.nullable(z.number()),
        requests: int,
        state: z.string(),
      }),
    ),
    broken: z.array(z.object({ id: z.string(), root: z.string() })),
    serversMemoryBytes: z.number(),
    memoryLimitBytes: z.number(),
  }),
]);

const StatusEntryShape = z.object({ path: z.string(), status: z.string(), oldPath: z.optional(z.string()) });
const HunkShape = z.object({ oldStart: int, oldLines: int, newStart: int, newLines: int, header: z.string() });

export const GitShape = z.union([
  z.object({
    branch: z.nullable(z.string()),
    oid: z.nullable(z.string()),
    upstream: z.optional(z.string()),
    ahead: int,
    behind: int,
    staged: z.array(StatusEntryShape),
    unstaged: z.array(StatusEntryShape),
    untracked: z.array(z.string()),
    conflicted: z.array(z.string()),
    ignored: z.array(z.string()),
  }),
  z.object({
    files: z.array(
      z.object({
        path: z.string(),
        oldPath: z.optional(z.string()),
        status: z.string(),
        additions: z.nullable(int),
        deletions: z.nullable(int),
        binary: z.boolean(),
        hunks: z.array(HunkShape),
      }),
    ),
  }),
  z.object({
    commits: z.array(
      z.object({
        hash: z.string(),
        author: z.string(),
        email: z.string(),
        date: z.string(),
        subject: z.string(),
        body: z.string(),
      }),
    ),
  }),
  z.object({
    current: z.nullable(z.string()),
    branches: z.array(
      z.object({ name: z.string(), current: z.boolean(), remote: z.boolean(), upstream: z.optional(z.string()) }),
    ),
  }),
  // Any other subcommand with --json: git's own output, with how it ended.
  z.object({
    subcommand: z.string(),
    class: z.string(),
    exit: z.nullable(int),
    stdout: z.string(),
    stderr: z.string(),
  }),
]);

export const ErrorShape = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    candidates: z.optional(z.array(z.string())),
  }),
});

/** One line of a batch's output: the command's own answer, or its error, with the exit code and the request's id. */
export const BatchLineShape = z.union([
  z.object({ id: z.optional(z.unknown()), exit: int, answer: z.record(z.string(), z.unknown()) }),
  z.object({ id: z.optional(z.unknown()), exit: int, error: ErrorShape.shape.error }),
]);

const TrustEntryShape = z.object({
  path: z.string(),
  configs: z.record(z.string(), z.string()),
  trusted: z.string(),
});
export const TrustShape = z.union([
  z.object({ trusted: z.array(TrustEntryShape), file: z.optional(z.string()) }),
  z.object({ revoked: z.nullable(z.string()) }),
]);

/** Each command's --json answer. An error answers any of them with ErrorShape instead. */
export const ANSWER_SHAPES = {
  def: LocationsShape,
  typedef: LocationsShape,
  impls: LocationsShape,
  refs: LocationsShape,
  hover: HoverShape,
  symbols: z.union([SymbolsShape, WorkspaceSymbolsShape]),
  calls: z.union([CallsShape, CallPathShape]),
  actions: ActionsShape,
  fmt: FmtShape,
  rename: RenameShape,
  mv: MvShape,
  index: IndexShape,
  diag: DiagShape,
  batch: BatchLineShape,
  git: GitShape,
  servers: z.union([ServersShape, ServersForShape]),
  trust: TrustShape,
  daemon: DaemonStatusShape,
} as const;
