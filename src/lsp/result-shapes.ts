/**
 * The shapes of what servers send that lspq reads, checked as it arrives:
 * a server's answer is data from another program, and a malformed one must
 * become a one-line error for that question, never a crash of the daemon
 * or a wrong answer. Each schema checks only the fields lspq relies on and
 * lets the rest through (servers add their own), so a valid answer of a
 * newer protocol version still passes.
 */
import * as z from 'zod/mini';

const PositionShape = z.looseObject({ line: z.number(), character: z.number() });
const RangeShape = z.looseObject({ start: PositionShape, end: PositionShape });
const LocationShape = z.looseObject({ uri: z.string(), range: RangeShape });
const LocationLinkShape = z.looseObject({
  targetUri: z.string(),
  targetRange: RangeShape,
  targetSelectionRange: RangeShape,
});
const TextEditShape = z.looseObject({ range: RangeShape, newText: z.string() });
const MarkupShape = z.looseObject({ kind: z.string(), value: z.string() });
const MarkedStringShape = z.union([z.string(), z.looseObject({ language: z.string(), value: z.string() })]);

export const DiagnosticShape = z.looseObject({
  range: RangeShape,
  message: z.union([z.string(), MarkupShape]),
  severity: z.optional(z.number()),
  code: z.optional(z.union([z.string(), z.number()])),
  source: z.optional(z.string()),
});

const TextDocumentEditShape = z.looseObject({
  textDocument: z.looseObject({ uri: z.string(), version: z.optional(z.nullable(z.number())) }),
  edits: z.array(z.looseObject({ range: RangeShape, newText: z.string() })),
});
const FileOperationShape = z.union([
  z.looseObject({ kind: z.literal('create'), uri: z.string() }),
  z.looseObject({ kind: z.literal('rename'), oldUri: z.string(), newUri: z.string() }),
  z.looseObject({ kind: z.literal('delete'), uri: z.string() }),
]);
export const WorkspaceEditShape = z.looseObject({
  changes: z.optional(z.record(z.string(), z.array(TextEditShape))),
  documentChanges: z.optional(z.array(z.union([TextDocumentEditShape, FileOperationShape]))),
});

const SymbolInformationShape = z.looseObject({
  name: z.string(),
  kind: z.number(),
  location: z.looseObject({ uri: z.string(), range: z.optional(RangeShape) }),
  containerName: z.optional(z.string()),
});

interface DocumentSymbolLike {
  name: string;
  kind: number;
  range: z.infer<typeof RangeShape>;
  selectionRange: z.infer<typeof RangeShape>;
  children?: DocumentSymbolLike[];
}
const DocumentSymbolShape: z.ZodMiniType<DocumentSymbolLike> = z.looseObject({
  name: z.string(),
  kind: z.number(),
  range: RangeShape,
  selectionRange: RangeShape,
  get children() {
    return z.optional(z.array(DocumentSymbolShape));
  },
});

const CallHierarchyItemShape = z.looseObject({
  name: z.string(),
  kind: z.number(),
  uri: z.string(),
  range: RangeShape,
  selectionRange: RangeShape,
});

const CommandShape = z.looseObject({ title: z.string(), command: z.string() });
const CodeActionShape = z.looseObject({
  title: z.string(),
  kind: z.optional(z.string()),
  edit: z.optional(WorkspaceEditShape),
  command: z.optional(CommandShape),
});

const DocumentReportShape = z.union([
  z.looseObject({ kind: z.literal('full'), items: z.array(DiagnosticShape), resultId: z.optional(z.string()) }),
  z.looseObject({ kind: z.literal('unchanged'), resultId: z.string() }),
]);

const orNull = <T>(shape: z.ZodMiniType<T>) => z.nullish(shape);
const locations = orNull(z.union([LocationShape, z.array(z.union([LocationShape, LocationLinkShape]))]));

/** The answer's shape for each request lspq sends; a method not listed here is not read, only awaited. */
export const RESULT_SHAPES: Record<string, z.ZodMiniType> = {
  initialize: z.looseObject({
    capabilities: z.record(z.string(), z.unknown()),
    serverInfo: z.optional(z.looseObject({ name: z.string(), version: z.optional(z.string()) })),
  }),
  'textDocument/definition': locations,
  'textDocument/typeDefinition': locations,
  'textDocument/implementation': locations,
  'textDocument/declaration': locations,
  'textDocument/references': orNull(z.array(LocationShape)),
  'textDocument/hover': orNull(
    z.looseObject({
      contents: z.union([MarkupShape, MarkedStringShape, z.array(MarkedStringShape)]),
      range: z.optional(RangeShape),
    }),
  ),
  'textDocument/documentSymbol': orNull(z.union([z.array(DocumentSymbolShape), z.array(SymbolInformationShape)])),
  'workspace/symbol': orNull(z.array(SymbolInformationShape)),
  'textDocument/prepareCallHierarchy': orNull(z.array(CallHierarchyItemShape)),
  'callHierarchy/incomingCalls': orNull(
    z.array(z.looseObject({ from: CallHierarchyItemShape, fromRanges: z.array(RangeShape) })),
  ),
  'callHierarchy/outgoingCalls': orNull(
    z.array(z.looseObject({ to: CallHierarchyItemShape, fromRanges: z.array(RangeShape) })),
  ),
  'textDocument/codeAction': orNull(z.array(z.union([CommandShape, CodeActionShape]))),
  'codeAction/resolve': CodeActionShape,
  'textDocument/formatting': orNull(z.array(TextEditShape)),
  'textDocument/rangeFormatting': orNull(z.array(TextEditShape)),
  'textDocument/prepareRename': orNull(
    z.union([
      RangeShape,
      z.looseObject({ range: RangeShape, placeholder: z.string() }),
      z.looseObject({ defaultBehavior: z.boolean() }),
    ]),
  ),
  'textDocument/rename': orNull(WorkspaceEditShape),
  'textDocument/diagnostic': DocumentReportShape,
  'workspace/diagnostic': z.looseObject({
    items: z.array(
      z.union([
        z.looseObject({ uri: z.string(), kind: z.literal('full'), items: z.array(DiagnosticShape) }),
        z.looseObject({ uri: z.string(), kind: z.literal('unchanged') }),
      ]),
    ),
  }),
};

/** The notifications lspq keeps state from; a malformed one is logged and dropped. */
export const NOTIFICATION_SHAPES = {
  publishDiagnostics: z.looseObject({
    uri: z.string(),
    version: z.optional(z.nullable(z.number())),
    diagnostics: z.array(DiagnosticShape),
  }),
  progress: z.looseObject({
    token: z.union([z.string(), z.number()]),
    value: z.looseObject({ kind: z.string(), title: z.optional(z.string()), message: z.optional(z.string()) }),
  }),
  serverStatus: z.looseObject({ quiescent: z.boolean() }),
  registration: z.looseObject({
    registrations: z.array(z.looseObject({ id: z.string(), method: z.string() })),
  }),
  unregistration: z.looseObject({ unregisterations: z.array(z.looseObject({ id: z.string() })) }),
  logMessage: z.looseObject({ type: z.number(), message: z.string() }),
  configuration: z.looseObject({ items: z.array(z.looseObject({ section: z.optional(z.string()) })) }),
};

/**
 * What an issue means, in words: zod/mini carries no message texts (its
 * locales are not loaded, to keep the daemon small), only the issue's code.
 */
export function issueText(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'wrong shape';
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'invalid_union') return 'none of the shapes the protocol allows';
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.code.replaceAll('_', ' ');
}

/** Where a value first departs from its shape, in one line; undefined when it fits. */
export function misfit(shape: z.ZodMiniType, value: unknown): string | undefined {
  const checked = z.safeParse(shape, value);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the answer';
  return `${where}: ${issueText(issue)}`;
}
