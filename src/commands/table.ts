/**
 * Every command, declared once: its name, one-line summary, flags, --help
 * examples and the process that runs it. main.ts reads it to route a
 * command line, the engine to parse one and render --help, the build
 * script and the bundle test to know the bundles. Pure data: main.ts
 * bundles it, and every question pays to load it.
 */
import type { ArgsDef } from 'citty';
import { DEFAULT_TIMEOUT_MS } from '../protocol/messages';

export const DEFAULT_LIMIT = 200;

/**
 * Where the engine runs a command. `daemon`: the warm daemon (or this
 * process with --no-daemon), for anything that asks a language server.
 * `here`: always the command's own process: git needs no server and lets
 * git's own messages reach the terminal; daemon control talks to the daemon.
 */
export type Process = 'daemon' | 'here';

export interface CommandSpec {
  summary: string;
  args: ArgsDef;
  /** Real command lines, shown at the end of --help: the test suite runs each one in one of its fixtures. */
  examples: readonly string[];
  process: Process;
  /** The positional argument takes any number of words (diag FILE...). */
  variadic?: boolean;
  /** The words are another program's (git's): the command takes them raw, --help included. */
  passthrough?: boolean;
  /** It reads its requests from stdin, one per line, and answers each as it goes (batch). */
  stream?: boolean;
  /** Its --timeout when none is given, in seconds, where the common default is too short (an indexer's run). */
  timeoutSeconds?: number;
  /**
   * It may write files: its command line names its edit, and a command
   * whose daemon dies under it asks the edit's journal what happened
   * instead of sending it again.
   */
  writes?: boolean;
}

const outputArgs = {
  json: { type: 'boolean', description: 'Print one JSON document (LSPQ_JSON=1 makes it the default)' },
} as const satisfies ArgsDef;

const serverArgs = {
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
  limit: { type: 'string', description: `Cut answers at N entries (default ${DEFAULT_LIMIT})`, valueHint: 'N' },
  daemon: {
    type: 'boolean',
    default: true,
    description: 'With --no-daemon, answer in this process and exit (slower; for one-off use in CI)',
  },
} as const satisfies ArgsDef;

const targetArgs = {
  ...serverArgs,
  target: { type: 'positional', required: false, description: 'FILE:LINE:COL or FILE:LINE:NAME', valueHint: 'TARGET' },
  symbol: {
    type: 'string',
    description: 'Find the target by workspace symbol name (Outer.inner narrows)',
    valueHint: 'NAME',
  },
  nth: { type: 'string', description: 'With FILE:LINE:NAME, take the K-th occurrence on the line', valueHint: 'K' },
} as const satisfies ArgsDef;

/** Lines of the code around each answer, with grep's letters, so an agent need not read the file next. */
const contextArgs = {
  context: { type: 'string', alias: 'C', description: 'Show N lines around each place (0-50)', valueHint: 'N' },
  before: { type: 'string', alias: 'B', description: 'Show N lines before each place', valueHint: 'N' },
  after: { type: 'string', alias: 'A', description: 'Show N lines after each place', valueHint: 'N' },
} as const satisfies ArgsDef;

/** Where the questions a SCIP index can answer look for one (`lspq index` builds it). */
const indexArgs = {
  index: {
    type: 'string',
    description: 'Answer from this SCIP index (default: LSPQ_INDEX, else .lspq/index.scip above the file)',
    valueHint: 'FILE',
  },
  'index-only': { type: 'boolean', description: 'Answer from the index only: never start a server' },
  'no-index': { type: 'boolean', description: 'Never read an index: ask the live server' },
} as const satisfies ArgsDef;

/** The flags of the questions answered with locations that have a declaration to show. */
const declarationArgs = {
  ...targetArgs,
  ...indexArgs,
  ...contextArgs,
  body: { type: 'boolean', description: "Show each location's whole declaration" },
  'max-lines': { type: 'string', description: 'Cut a --body at N lines (default 200)', valueHint: 'N' },
} as const satisfies ArgsDef;

export const COMMANDS = {
  def: {
    summary: 'definition(s) of the symbol at TARGET',
    args: declarationArgs,
    examples: [
      'lspq def main.go:7:TotalArea',
      'lspq def src/main.ts:7:totalArea --json',
      'lspq def --symbol Circle.Area',
    ],
    process: 'daemon',
  },
  typedef: {
    summary: 'definition of the type of the symbol at TARGET',
    args: declarationArgs,
    examples: ['lspq typedef main.go:6:shapes', 'lspq typedef src/main.ts:7:totalArea --json'],
    process: 'daemon',
  },
  impls: {
    summary: 'implementations of an interface, abstract method or type',
    args: declarationArgs,
    examples: ['lspq impls src/shape.ts:4:area', 'lspq impls shape.go:4:Shape --json'],
    process: 'daemon',
  },
  refs: {
    summary: 'references to the symbol at TARGET',
    args: {
      ...targetArgs,
      ...indexArgs,
      ...contextArgs,
      'include-declaration': { type: 'boolean', description: 'Also list the declaration itself' },
    },
    examples: [
      'lspq refs shapes/shape.py:7:Shape',
      'lspq refs geometry.go:17:TotalArea --include-declaration',
      'lspq refs --symbol total_area --json',
    ],
    process: 'daemon',
  },
  hover: {
    summary: 'signature, type and documentation at TARGET',
    args: { ...targetArgs, ...indexArgs },
    examples: ['lspq hover geometry.go:9:sumAreas', 'lspq hover src/geometry.ts:13:totalArea --json'],
    process: 'daemon',
  },
  symbols: {
    summary: "a file's symbols as a tree; -w QUERY searches the workspace",
    args: {
      ...serverArgs,
      input: { type: 'positional', required: false, description: 'FILE, or QUERY with -w', valueHint: 'FILE|QUERY' },
      workspace: { type: 'boolean', alias: 'w', description: 'Search the whole workspace for QUERY' },
      ...indexArgs,
      ...contextArgs,
      kind: {
        type: 'string',
        description: 'Only these kinds, comma-separated (class,function,...)',
        valueHint: 'K,...',
      },
    },
    examples: ['lspq symbols shape.h', 'lspq symbols -w total', 'lspq symbols src/geometry.ts --kind function'],
    process: 'daemon',
  },
  calls: {
    summary: 'callers (or --out callees) of the function at TARGET',
    args: {
      ...targetArgs,
      ...contextArgs,
      out: { type: 'boolean', description: 'Outgoing calls (callees) instead of callers' },
      depth: {
        type: 'string',
        description: 'Follow calls this many levels (default 1; with --to, 6)',
        valueHint: 'N',
      },
      to: {
        type: 'string',
        description: 'The shortest call chains from TARGET to this target or symbol name',
        valueHint: 'TARGET|NAME',
      },
    },
    examples: [
      'lspq calls geometry.c:3:area_of --depth 3',
      'lspq calls geometry.go:17:TotalArea --out',
      'lspq calls main.go:5:main --to Shape.Area',
    ],
    process: 'daemon',
  },
  actions: {
    summary: 'code actions at TARGET, FILE:LINE or FILE:START-END; --apply N applies one',
    args: {
      ...targetArgs,
      target: {
        type: 'positional',
        required: false,
        description: 'FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or FILE:START-END',
        valueHint: 'TARGET',
      },
      kind: {
        type: 'string',
        description: 'Only these kinds, comma-separated prefixes (quickfix, refactor, source.organizeImports)',
        valueHint: 'K,...',
      },
      apply: { type: 'string', description: 'Apply action N of the list', valueHint: 'N' },
      'apply-preferred': { type: 'boolean', description: "Apply the server's preferred action" },
      'dry-run': { type: 'boolean', description: 'With --apply, print the diff and write nothing' },
      verify: {
        type: 'boolean',
        description: 'After writing, put every file back if the edit introduced an error (printed; exit 1)',
      },
      'verify-all': { type: 'boolean', description: 'With --verify, look for new errors in the whole workspace' },
      all: { type: 'boolean', description: 'Also list the actions the server offers disabled, with why' },
      'allow-outside': { type: 'boolean', description: 'Let the edit change files outside the workspace root' },
    },
    examples: [
      'lspq actions src/main.ts:1 --kind source',
      'lspq actions src/main.ts:1-4 --kind source.organizeImports --apply 1 --dry-run',
      'lspq actions src/main.ts:6:Circle --kind quickfix --json',
    ],
    process: 'daemon',
    writes: true,
  },
  fmt: {
    summary: 'format FILEs: a diff by default, --write rewrites them, --check only tells',
    args: {
      ...serverArgs,
      files: { type: 'positional', required: false, description: 'Files to format', valueHint: 'FILE...' },
      range: { type: 'string', description: 'Only these lines (one file)', valueHint: 'START-END' },
      write: { type: 'boolean', description: 'Rewrite the files (each whole, or none if any cannot be written)' },
      check: { type: 'boolean', description: 'Change nothing; list the files that would change and exit 1 if any' },
    },
    examples: ['lspq fmt main.go', 'lspq fmt --check *.go', 'lspq fmt src/geometry.ts --range 3-5 --write'],
    process: 'daemon',
    writes: true,
    variadic: true,
  },
  rename: {
    summary: 'rename the symbol at TARGET across the workspace; --dry-run shows the diff',
    args: {
      ...targetArgs,
      'new-name': { type: 'positional', required: false, description: 'The new name', valueHint: 'NEWNAME' },
      'dry-run': { type: 'boolean', description: 'Print the diff and write nothing' },
      verify: {
        type: 'boolean',
        description: 'After writing, put every file back if the edit introduced an error (printed; exit 1)',
      },
      'verify-all': { type: 'boolean', description: 'With --verify, look for new errors in the whole workspace' },
      'allow-outside': { type: 'boolean', description: 'Let the edit change files outside the workspace root' },
    },
    examples: [
      'lspq rename geometry.go:17:TotalArea SumOfAreas --dry-run',
      'lspq rename shapes/geometry.py:15:total_area area_sum',
      'lspq rename --symbol Circle Round --dry-run',
    ],
    process: 'daemon',
    writes: true,
  },
  mv: {
    summary: 'move a file or folder and update what imports it, all or nothing; --dry-run shows the diff',
    args: {
      ...serverArgs,
      old: { type: 'positional', required: false, description: 'The file or folder to move', valueHint: 'OLD' },
      new: {
        type: 'positional',
        required: false,
        description: 'Where it goes (into it, when a folder that exists)',
        valueHint: 'NEW',
      },
      'dry-run': { type: 'boolean', description: 'Print the diff and the move, and change nothing' },
      verify: {
        type: 'boolean',
        description: 'After writing, put every file back if the edit introduced an error (printed; exit 1)',
      },
      'verify-all': { type: 'boolean', description: 'With --verify, look for new errors in the whole workspace' },
      'no-update': { type: 'boolean', description: 'Only move: ask no server, update no import' },
      'allow-outside': { type: 'boolean', description: 'Let the move or its edits reach outside the workspace root' },
    },
    examples: [
      'lspq mv src/circle.ts src/shapes/circle.ts --dry-run',
      'lspq mv src/square.ts src/shapes/square.ts',
      'lspq mv circle.go round.go --no-update',
    ],
    process: 'daemon',
    writes: true,
  },
  index: {
    summary:
      "build a SCIP index of the project (scip-typescript, scip-python, rust-analyzer's scip) for answers without a server",
    args: {
      ...serverArgs,
      root: { type: 'string', description: "The project to index (default: the checkout's top)", valueHint: 'DIR' },
      out: { type: 'string', description: 'Where to write it (default: ROOT/.lspq/index.scip)', valueHint: 'FILE' },
      timeout: {
        type: 'string',
        description: 'Give up after this many seconds (default 1800; exit 3)',
        valueHint: 'SECONDS',
      },
    },
    examples: ['lspq index', 'lspq index --root . --json'],
    process: 'daemon',
    timeoutSeconds: 1800,
  },
  diag: {
    summary: 'diagnostics for files, --staged changes or --all the workspace',
    args: {
      ...serverArgs,
      ...contextArgs,
      files: {
        type: 'positional',
        required: false,
        description: 'Files to check (default: the changed files, in git)',
        valueHint: 'FILE...',
      },
      staged: { type: 'boolean', description: 'The staged content of the staged files (for a pre-commit hook)' },
      all: { type: 'boolean', description: 'Every source file of the workspace' },
      since: {
        type: 'string',
        description: 'Only what is new since REV (the changed files; with --all the workspace)',
        valueHint: 'REV',
      },
      'changed-lines': {
        type: 'boolean',
        description: 'Only diagnostics on lines added or changed (since REV, else HEAD)',
      },
      format: {
        type: 'string',
        description: 'sarif (SARIF 2.1.0, for code scanning) or github (workflow commands, inline on a pull request)',
        valueHint: 'F',
      },
      severity: {
        type: 'string',
        description: 'Show only this severity and worse (error, warning, info, hint)',
        valueHint: 'S',
      },
      'fail-on': {
        type: 'string',
        description: 'Exit 1 at this severity or worse (default error); never: always exit 0',
        valueHint: 'S',
      },
    },
    examples: [
      'lspq diag src/broken.ts',
      'lspq diag --staged --fail-on warning',
      'lspq diag --all --json',
      'lspq diag --since main --all',
    ],
    process: 'daemon',
    variadic: true,
  },
  batch: {
    summary: 'many questions, one per stdin line, answered as JSON lines in order',
    args: {
      ...serverArgs,
      jobs: {
        type: 'string',
        description: 'Questions answered at once (default 4); answers still leave in input order',
        valueHint: 'N',
      },
    },
    examples: [
      `printf '["hover", "geometry.go:9:sumAreas"]\\n["def", "main.go:7:TotalArea"]\\n' | lspq batch`,
      `echo '{"id": 1, "args": ["refs", "shape.go:4:Shape"]}' | lspq batch --jobs 8`,
    ],
    process: 'daemon',
    stream: true,
  },
  git: {
    summary: 'git under a safety policy (--allow-write, --allow-destructive)',
    args: {},
    examples: ['lspq git status --json', 'lspq git log -n 5 --json', "lspq git commit -m 'fix parser' --allow-write"],
    process: 'here',
    passthrough: true,
  },
  schema: {
    summary: "the JSON Schema of every --json answer, or of COMMAND's",
    // The common flags are taken by every command, though a schema is JSON whatever they say.
    args: {
      ...serverArgs,
      command: {
        type: 'positional',
        required: false,
        description: 'The command whose answer to describe',
        valueHint: 'COMMAND',
      },
    },
    examples: ['lspq schema', 'lspq schema def'],
    process: 'here',
  },
  trust: {
    summary: "let a repository's own servers and .lsp.json run; --list, --revoke",
    args: {
      ...serverArgs,
      dir: {
        type: 'positional',
        required: false,
        description: "The repository (default: the one around the current folder; its checkout's top)",
        valueHint: 'DIR',
      },
      list: { type: 'boolean', description: 'List the trusted repositories' },
      revoke: { type: 'boolean', description: 'Trust DIR no longer' },
    },
    examples: ['lspq trust', 'lspq trust --list', 'lspq trust --revoke'],
    process: 'here',
  },
  servers: {
    summary: 'known language servers: found or not, version, running roots; --for FILE what each can answer',
    args: {
      ...serverArgs,
      for: {
        type: 'string',
        description: 'The servers for FILE, in the order asked, and the commands each can answer (starts them)',
        valueHint: 'FILE',
      },
    },
    examples: ['lspq servers', 'lspq servers --json', 'lspq servers --for main.go'],
    process: 'daemon',
  },
  daemon: {
    summary: 'status | stop | restart | logs of the background daemon',
    args: {
      ...serverArgs,
      action: {
        type: 'positional',
        required: false,
        description: 'status | stop | restart | logs',
        valueHint: 'ACTION',
      },
    },
    examples: ['lspq daemon status', 'lspq daemon logs', 'lspq daemon stop'],
    process: 'here',
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export type ArgsOf<N extends CommandName> = (typeof COMMANDS)[N]['args'];

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

export const DAEMON_ACTIONS = ['status', 'stop', 'restart', 'logs'] as const;
