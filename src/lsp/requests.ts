/**
 * Every request lspq sends a server, each with the shape its answer is
 * checked against as it arrives (client.ts). `LspClient.request` takes
 * only these: a new request does not compile until it has a shape here.
 * Each shape checks the fields lspq reads and lets the rest through.
 */
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  CodeActionResolveRequest,
  DeclarationRequest,
  DefinitionRequest,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  HoverRequest,
  ImplementationRequest,
  InitializeRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  type RequestType,
  type RequestType0,
  ShutdownRequest,
  SignatureHelpRequest,
  TypeDefinitionRequest,
  WillRenameFilesRequest,
  WorkspaceDiagnosticRequest,
  WorkspaceSymbolRequest,
} from 'vscode-languageserver-protocol';
import * as z from 'zod/mini';
import {
  CallHierarchyItemShape,
  CodeActionShape,
  CommandShape,
  DiagnosticShape,
  DocumentReportShape,
  DocumentSymbolShape,
  LocationLinkShape,
  LocationShape,
  MarkedStringShape,
  MarkupShape,
  RangeShape,
  SymbolInformationShape,
  TextEditShape,
  WorkspaceEditShape,
} from './message-shapes';

/** A request with the shape of its answer. */
export interface Checked<P, R> {
  type: RequestType<P, R, unknown> | RequestType0<R, unknown>;
  shape: z.ZodMiniType;
}

function checked<P, R, E>(type: RequestType<P, R, E>, shape: z.ZodMiniType): Checked<P, R>;
function checked<R, E>(type: RequestType0<R, E>, shape: z.ZodMiniType): Checked<undefined, R>;
function checked(type: RequestType<unknown, unknown, unknown> | RequestType0<unknown, unknown>, shape: z.ZodMiniType) {
  return { type, shape };
}

const orNull = <T>(shape: z.ZodMiniType<T>) => z.nullish(shape);
export const LocationsOrLinksShape = orNull(
  z.union([LocationShape, z.array(z.union([LocationShape, LocationLinkShape]))]),
);
export const HoverShape = orNull(
  z.looseObject({
    contents: z.union([MarkupShape, MarkedStringShape, z.array(MarkedStringShape)]),
    range: z.optional(RangeShape),
  }),
);

const DocumentationShape = z.optional(z.union([z.string(), MarkupShape]));
export const SignatureHelpShape = orNull(
  z.looseObject({
    signatures: z.array(
      z.looseObject({
        label: z.string(),
        documentation: DocumentationShape,
        parameters: z.optional(
          z.array(
            z.looseObject({
              label: z.union([z.string(), z.tuple([z.int(), z.int()])]),
              documentation: DocumentationShape,
            }),
          ),
        ),
        activeParameter: z.nullish(z.int()),
      }),
    ),
    activeSignature: z.nullish(z.int()),
    activeParameter: z.nullish(z.int()),
  }),
);

export const Requests = {
  initialize: checked(
    InitializeRequest.type,
    z.looseObject({
      capabilities: z.record(z.string(), z.unknown()),
      serverInfo: z.optional(z.looseObject({ name: z.string(), version: z.optional(z.string()) })),
    }),
  ),
  // Its answer is null; nothing of it is read.
  shutdown: checked(ShutdownRequest.type, z.unknown()),
  definition: checked(DefinitionRequest.type, LocationsOrLinksShape),
  typeDefinition: checked(TypeDefinitionRequest.type, LocationsOrLinksShape),
  implementation: checked(ImplementationRequest.type, LocationsOrLinksShape),
  declaration: checked(DeclarationRequest.type, LocationsOrLinksShape),
  references: checked(ReferencesRequest.type, orNull(z.array(LocationShape))),
  hover: checked(HoverRequest.type, HoverShape),
  signatureHelp: checked(SignatureHelpRequest.type, SignatureHelpShape),
  documentSymbol: checked(
    DocumentSymbolRequest.type,
    orNull(z.union([z.array(DocumentSymbolShape), z.array(SymbolInformationShape)])),
  ),
  workspaceSymbol: checked(WorkspaceSymbolRequest.type, orNull(z.array(SymbolInformationShape))),
  prepareCallHierarchy: checked(CallHierarchyPrepareRequest.type, orNull(z.array(CallHierarchyItemShape))),
  incomingCalls: checked(
    CallHierarchyIncomingCallsRequest.type,
    orNull(z.array(z.looseObject({ from: CallHierarchyItemShape, fromRanges: z.array(RangeShape) }))),
  ),
  outgoingCalls: checked(
    CallHierarchyOutgoingCallsRequest.type,
    orNull(z.array(z.looseObject({ to: CallHierarchyItemShape, fromRanges: z.array(RangeShape) }))),
  ),
  codeAction: checked(CodeActionRequest.type, orNull(z.array(z.union([CommandShape, CodeActionShape])))),
  resolveCodeAction: checked(CodeActionResolveRequest.type, CodeActionShape),
  // A command's answer is its own (tsserver's diagnostics are checked where they are read, diagnostics.ts).
  executeCommand: checked(ExecuteCommandRequest.type, z.unknown()),
  formatting: checked(DocumentFormattingRequest.type, orNull(z.array(TextEditShape))),
  rangeFormatting: checked(DocumentRangeFormattingRequest.type, orNull(z.array(TextEditShape))),
  prepareRename: checked(
    PrepareRenameRequest.type,
    orNull(
      z.union([
        RangeShape,
        z.looseObject({ range: RangeShape, placeholder: z.string() }),
        z.looseObject({ defaultBehavior: z.boolean() }),
      ]),
    ),
  ),
  rename: checked(RenameRequest.type, orNull(WorkspaceEditShape)),
  willRenameFiles: checked(WillRenameFilesRequest.type, orNull(WorkspaceEditShape)),
  documentDiagnostic: checked(DocumentDiagnosticRequest.type, DocumentReportShape),
  workspaceDiagnostic: checked(
    WorkspaceDiagnosticRequest.type,
    z.looseObject({
      items: z.array(
        z.union([
          z.looseObject({ uri: z.string(), kind: z.literal('full'), items: z.array(DiagnosticShape) }),
          z.looseObject({ uri: z.string(), kind: z.literal('unchanged') }),
        ]),
      ),
    }),
  ),
};
