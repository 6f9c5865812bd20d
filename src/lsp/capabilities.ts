/**
 * What lspq tells servers it can do. Honest: each capability here is one
 * lspq handles, because servers change behaviour on them (pyright stops
 * pushing diagnostics once pull is advertised).
 */
import type { ClientCapabilities, SymbolKind } from 'vscode-languageserver-protocol';
import { ACTION_KINDS } from '../common/action-kinds';

// SymbolKind is the numbers 1 to 26, which Array.from's index cannot be typed to be.
const ALL_SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);

/** `codePointsOnly`: a server that counts code points whatever it announces is offered utf-32 alone. */
export function clientCapabilities(codePointsOnly = false): ClientCapabilities {
  return {
    general: {
      // Preference order; the server picks, and lspq converts with whatever it picked.
      positionEncodings: codePointsOnly ? ['utf-32'] : ['utf-8', 'utf-32', 'utf-16'],
    },
    window: {
      workDoneProgress: true,
      showMessage: { messageActionItem: { additionalPropertiesSupport: false } },
      // Only while a code action's command runs does lspq take a page to show: it prints the address.
      showDocument: { support: true },
    },
    workspace: {
      workspaceFolders: true,
      configuration: true,
      // Answered only while lspq runs a code action's command (actions --apply); refused otherwise.
      applyEdit: true,
      workspaceEdit: {
        documentChanges: true,
        resourceOperations: ['create', 'rename', 'delete'],
        failureHandling: 'transactional',
      },
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      symbol: { symbolKind: { valueSet: ALL_SYMBOL_KINDS } },
      diagnostics: { refreshSupport: true },
      // lspq mv asks for the edits a move needs, then says it moved.
      fileOperations: { willRename: true, didRename: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true, willSave: false, willSaveWaitUntil: false },
      definition: { linkSupport: true },
      typeDefinition: { linkSupport: true },
      implementation: { linkSupport: true },
      declaration: { linkSupport: true },
      references: {},
      hover: { contentFormat: ['markdown', 'plaintext'] },
      // Parameters as offsets into the label (no guessing which `x` of the label is the parameter), one active each.
      signatureHelp: {
        signatureInformation: {
          documentationFormat: ['markdown', 'plaintext'],
          parameterInformation: { labelOffsetSupport: true },
          activeParameterSupport: true,
        },
        contextSupport: true,
      },
      documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: ALL_SYMBOL_KINDS } },
      callHierarchy: {},
      formatting: {},
      rangeFormatting: {},
      rename: { prepareSupport: true },
      codeAction: {
        // Without literal support servers answer with bare commands only.
        codeActionLiteralSupport: {
          codeActionKind: {
            valueSet: ['', ...ACTION_KINDS],
          },
        },
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ['edit'] },
      },
      publishDiagnostics: { versionSupport: true, relatedInformation: false, codeDescriptionSupport: true },
      diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    },
    experimental: {
      // rust-analyzer reports readiness (quiescent) only when asked for it.
      serverStatusNotification: true,
    },
  };
}
