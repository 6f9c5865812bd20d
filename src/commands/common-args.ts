/**
 * The flags several commands take, in groups a command's declaration
 * spreads into its own: output, server choice, target, code around the
 * answer, index, --verify. Pure data.
 */
import type { ArgsDef } from 'citty';
import { DEFAULT_TIMEOUT_MS } from '../common/messages';

/** How many entries an answer lists unless --limit says otherwise. */
export const DEFAULT_LIMIT = 200;

export const outputArgs = {
  json: { type: 'boolean', description: 'Print one JSON document (LSPQ_JSON=1 makes it the default)' },
} as const satisfies ArgsDef;

export const serverArgs = {
  ...outputArgs,
  root: {
    type: 'string',
    description: 'Workspace root (default: found by root markers above the file)',
    valueHint: 'DIR',
  },
  server: { type: 'string', description: "Use this server id ('lspq servers' lists them)", valueHint: 'ID' },
  timeout: {
    type: 'string',
    description: `Give up after this many seconds (default ${DEFAULT_TIMEOUT_MS / 1000}; exit 3)`,
    valueHint: 'SECONDS',
  },
  limit: {
    type: 'string',
    description: `Cut answers at N entries (default ${DEFAULT_LIMIT}; 0 for all)`,
    valueHint: 'N',
  },
  daemon: {
    type: 'boolean',
    default: true,
    description: 'With --no-daemon, answer in this process and exit (slower; for one-off use in CI)',
  },
} as const satisfies ArgsDef;

export const targetArgs = {
  ...serverArgs,
  target: {
    type: 'positional',
    required: false,
    description: "FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or 'FILE:LINE:TEXT<|>TEXT'",
    valueHint: 'TARGET',
  },
  symbol: {
    type: 'string',
    description: 'Find the target by workspace symbol name (Outer.inner narrows)',
    valueHint: 'NAME',
  },
  nth: { type: 'string', description: 'With FILE:LINE:NAME, take the K-th occurrence on the line', valueHint: 'K' },
} as const satisfies ArgsDef;

/** Lines of the code around each answer, with grep's letters, so an agent need not read the file next. */
export const contextArgs = {
  context: { type: 'string', alias: 'C', description: 'Show N lines around each place (0-50)', valueHint: 'N' },
  before: { type: 'string', alias: 'B', description: 'Show N lines before each place', valueHint: 'N' },
  after: { type: 'string', alias: 'A', description: 'Show N lines after each place', valueHint: 'N' },
} as const satisfies ArgsDef;

/** Where the questions a SCIP index can answer look for one (`lspq index` builds it). */
export const indexArgs = {
  index: {
    type: 'string',
    description: 'Answer from this SCIP index (default: LSPQ_INDEX, else .lspq/index.scip above the file)',
    valueHint: 'FILE',
  },
  'index-only': { type: 'boolean', description: 'Answer from the index only: never start a server' },
  'no-index': { type: 'boolean', description: 'Never read an index: ask the live server' },
} as const satisfies ArgsDef;

/** The flags of the questions answered with locations that have a declaration to show. */
export const declarationArgs = {
  ...targetArgs,
  ...indexArgs,
  ...contextArgs,
  body: { type: 'boolean', description: "Show each location's whole declaration" },
  'max-lines': { type: 'string', description: 'Cut a --body at N lines (default 200)', valueHint: 'N' },
} as const satisfies ArgsDef;

/** The flags of the commands that write an edit: --dry-run, --verify, --allow-outside. */
export const editArgs = {
  verify: {
    type: 'boolean',
    description: 'After writing, put every file back if the edit introduced an error (printed; exit 1)',
  },
  'verify-all': { type: 'boolean', description: 'With --verify, look for new errors in the whole workspace' },
  'allow-outside': { type: 'boolean', description: 'Let the edit change files outside the workspace root' },
} as const satisfies ArgsDef;
