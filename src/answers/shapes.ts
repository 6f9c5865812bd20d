/**
 * The parts of the `--json` answers that several commands share, as zod
 * schemas: each command's own shape (its folder's shape.ts) is built from
 * them. One definition gives the renderers' return types, `lspq schema`'s
 * JSON Schema and the test suite's check of every JSON document.
 */
import * as z from 'zod/mini';

export const int = z.int();
export const Span = { line: int, column: int, endLine: int, endColumn: int };
export const SpanShape = z.object(Span);

export const ContextShape = z.object({ line: int, lines: z.array(z.string()) });
export const BodyShape = z.object({ line: int, endLine: int, text: z.string(), truncated: z.boolean() });

/** The symbol a place sits in: its name as code writes it (`Circle.area`, a value --symbol takes) and kind. */
export const EnclosingShape = z.object({ name: z.string(), kind: z.string() });

export const LocationShape = z.object({
  path: z.string(),
  ...Span,
  preview: z.string(),
  context: z.optional(ContextShape),
  body: z.optional(z.nullable(BodyShape)),
  /** refs: the symbol the reference sits in. */
  in: z.optional(EnclosingShape),
});

export const TargetShape = z.object({ path: z.string(), line: int, column: int, symbol: z.optional(z.string()) });

/** Every answer from a language server names the server and the root it used. */
export const answered = { server: z.string(), root: z.string() };
/** A list cut at --limit: how many there were, and whether some are left out. */
export const cut = { total: int, truncated: z.boolean() };

/** Where an answer came from: a SCIP index (with the files changed since it was built) or a live server. */
export const sourced = {
  source: z.optional(z.enum(['index', 'server'])),
  stale: z.optional(z.array(z.string())),
};

/** Which server answered for which root: one pair each, never two lists to pair by position. */
export const ServerRootShape = z.object({ server: z.string(), root: z.string() });

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

/** A checker left out of a diagnosis: what is missing, and what would bring it in. */
export const WithheldShape = z.object({ server: z.string(), missing: z.string(), fix: z.string() });

/** A file no installed server checks: why, and whether the answer needs it (exit 3) or it is a note. */
export const UncheckedShape = z.object({ path: z.string(), reason: z.string(), needed: z.boolean() });

/** --verify: the errors the edit introduced, and whether every file was put back for them; `written: false` for a dry run's. */
export const VerificationShape = z.object({
  introduced: z.array(DiagnosticShape),
  reverted: z.boolean(),
  written: z.optional(z.boolean()),
  incomplete: z.optional(z.array(z.string())),
});

/** A file an edit changes: how many text edits, and its new path when it moved. */
export const FileChangesShape = z.object({ path: z.string(), changes: int, newPath: z.optional(z.string()) });

/**
 * Any answer as written with --json: its shape, with the engine's notes
 * beside it (what was left out as untrusted, a server passed over), the
 * lines a person sees on stderr.
 */
export function withNotesField(shape: z.ZodMiniType): z.ZodMiniType {
  if (shape instanceof z.ZodMiniObject) return z.extend(shape, { notes: z.optional(z.array(z.string())) });
  if (shape instanceof z.ZodMiniUnion) {
    const options = (shape.def.options as z.ZodMiniType[]).map(withNotesField);
    return z.union(options as [z.ZodMiniType, ...z.ZodMiniType[]]);
  }
  return shape;
}

/** Any command's answer, when it fails. */
export const ErrorShape = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    candidates: z.optional(z.array(z.string())),
  }),
});
