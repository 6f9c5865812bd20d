/**
 * The shapes of what servers send that lspq reads, checked as it arrives:
 * a server's answer is data from another program, and a malformed one must
 * become a one-line error for that question, never a crash of the daemon
 * or a wrong answer. Each schema checks only the fields lspq relies on and
 * lets the rest through (servers add their own), so a valid answer of a
 * newer protocol version still passes.
 */
import { firstIssue } from '../common/zod-issues';
import * as z from 'zod/mini';

const PositionShape = z.looseObject({ line: z.number(), character: z.number() });
export const RangeShape = z.looseObject({ start: PositionShape, end: PositionShape });
export const LocationShape = z.looseObject({ uri: z.string(), range: RangeShape });
export const LocationLinkShape = z.looseObject({
  targetUri: z.string(),
  targetRange: RangeShape,
  targetSelectionRange: RangeShape,
});
export const TextEditShape = z.looseObject({ range: RangeShape, newText: z.string() });
export const MarkupShape = z.looseObject({ kind: z.string(), value: z.string() });
export const MarkedStringShape = z.union([z.string(), z.looseObject({ language: z.string(), value: z.string() })]);

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

export const SymbolInformationShape = z.looseObject({
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
export const DocumentSymbolShape: z.ZodMiniType<DocumentSymbolLike> = z.looseObject({
  name: z.string(),
  kind: z.number(),
  range: RangeShape,
  selectionRange: RangeShape,
  get children() {
    return z.optional(z.array(DocumentSymbolShape));
  },
});

export const CallHierarchyItemShape = z.looseObject({
  name: z.string(),
  kind: z.number(),
  uri: z.string(),
  range: RangeShape,
  selectionRange: RangeShape,
});

export const CommandShape = z.looseObject({ title: z.string(), command: z.string() });
export const CodeActionShape = z.looseObject({
  title: z.string(),
  kind: z.optional(z.string()),
  edit: z.optional(WorkspaceEditShape),
  command: z.optional(CommandShape),
});

export const DocumentReportShape = z.union([
  z.looseObject({ kind: z.literal('full'), items: z.array(DiagnosticShape), resultId: z.optional(z.string()) }),
  z.looseObject({ kind: z.literal('unchanged'), resultId: z.string() }),
]);

/** A client/registerCapability's options for workspace/didChangeWatchedFiles: the globs lspq tells the server of. */
export const WatchedFilesOptionsShape = z.looseObject({
  watchers: z.array(
    z.looseObject({
      globPattern: z.union([
        z.string(),
        z.looseObject({
          baseUri: z.union([z.string(), z.looseObject({ uri: z.string() })]),
          pattern: z.string(),
        }),
      ]),
    }),
  ),
});

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

/** Where a value first departs from its shape, in one line; undefined when it fits. */
export function misfit(shape: z.ZodMiniType, value: unknown): string | undefined {
  const checked = z.safeParse(shape, value);
  if (checked.success) return undefined;
  return firstIssue(checked.error, 'the answer', 'the shapes the protocol allows');
}
