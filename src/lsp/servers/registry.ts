import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { StyleSettings } from '../style-settings';
import { JS_TS } from './languages';
import type { WorkspaceKind } from './workspaces';
import { OTHER_SERVERS } from './other-servers';
/**
 * The servers lspq knows, as data. Order matters: for a file, the first
 * server whose binary is found answers (diag asks them all).
 */
export type Readiness =
  /** Answers are right as soon as the server answers (it queues requests itself). */
  | 'immediate'
  /** Wait until the work-done progress the server started has ended. */
  | 'progress'
  /**
   * clangd: wait until every open file has been parsed (its first
   * diagnostics arrived) and, where the project has its `indexedBy` file
   * (a compilation database), until the background index has run to its
   * end once: it checks its stored index against the files as it starts,
   * and before it has, answers from what it stored, however stale. Before
   * that it also answers a definition with the header's declaration.
   */
  | 'indexed'
  /**
   * pyright: wait for its log line saying the workspace's files are
   * enumerated. Until then a references search covers only open files and
   * comes back empty, though its own progress has already ended.
   */
  | 'enumerated'
  /**
   * rust-analyzer: wait for experimental/serverStatus quiescent, once it
   * has reported loading the workspace (a quiescent status can come first).
   */
  | 'quiescent';

/**
 * How lspq knows a file's diagnostics are complete:
 * - pull: textDocument/diagnostic (the server may announce it by registration);
 * - gopls-barrier: gopls.diagnose_files returns once the files are diagnosed;
 * - versioned: clangd publishes once per version, the synced one is awaited;
 * - tsserver: typescript-language-server publishes nothing when nothing
 *   changed, so tsserver is asked its three passes directly;
 * - pull-and-check: its own diagnostics pulled, and those of the check it
 *   runs on save (rust-analyzer's cargo check), pushed once that ends;
 * - push: any other server's publishes, with a quiet window (the fallback).
 * Without a declared strategy: pull where offered, else push.
 */
export type DiagnosticsStrategy = 'pull' | 'gopls-barrier' | 'versioned' | 'tsserver' | 'pull-and-check' | 'push';

export interface ServerSpec {
  id: string;
  name: string;
  /** Servers of one family are alternatives (diag asks only the first found); others complement each other. */
  family?: string;
  /** Binary name looked up in the project's node_modules/.bin and PATH, unless `locate` says otherwise. */
  command: string;
  args: string[];
  /** File extension (with dot) or exact file name → LSP language id. */
  languages: Record<string, string>;
  /** Groups of root markers, tried in order: the first group found above the file wins. */
  rootMarkers: string[][];
  /**
   * Rust: the top-most Cargo.toml that declares [workspace]. Python: without
   * a marker, the folder above the file's top-most package, so imports of
   * the package resolve (a root inside the package breaks them).
   */
  rootRule?: 'cargo-workspace' | 'python-package';
  /** The workspaces it answers for as one (workspaces.ts): its root is the workspace's, whichever package asks. */
  workspaces?: WorkspaceKind;
  /**
   * It answers from the projects of its open files only (both TypeScript
   * servers): before a question that spans the workspace, a file of each
   * project (each tsconfig) is opened on it.
   */
  projects?: 'tsconfig';
  /**
   * Only its references, renames, file moves and symbol search span the
   * projects of a workspace (tsserver): implementations and callers are
   * asked again from a reference inside each other project (projects.ts).
   */
  crossProject?: 'references-only';
  install: string;
  /** A special binary lookup (TypeScript 7 ships its server inside a platform package). */
  locate?: 'typescript-native';
  initializationOptions?: unknown;
  /** Answers to workspace/configuration, by section. */
  settings?: Record<string, unknown>;
  /**
   * Where the server reads the Python interpreter to resolve imports with
   * (pyright: `python.pythonPath`); given the project's environment's.
   * Servers without it read VIRTUAL_ENV (pylsp's jedi) or PATH.
   */
  interpreterSetting?: 'python.pythonPath';
  /** How the server is told a file's indentation before it computes an edit, when it ignores the request's options. */
  style?: StyleSettings;
  env?: Record<string, string>;
  /**
   * Environment variables that change the server's answers: part of the
   * pool key. PATH counts only through `pathTools`.
   */
  envKeys: string[];
  /**
   * Programs the server runs by name from PATH (node for a Node server, go
   * for gopls): the pool is keyed on where PATH finds them, not on the PATH
   * string, which a git hook changes (git's exec folder first) without
   * changing any answer.
   */
  pathTools?: string[];
  readiness: Readiness;
  diagnostics?: DiagnosticsStrategy;
  /** With readiness 'enumerated': the server's log line that says it is ready. */
  readyLog?: RegExp;
  /** With readiness 'indexed': the file at the root that makes the server index the project in the background. */
  indexedBy?: string;
  versionArgs: string[];
  /** Requests it is known not to offer: when no installed server can answer, the others are suggested. */
  lacks?: (keyof ServerCapabilities)[];
  /**
   * For fmt: 'first' formats before the file's other servers (ruff is the
   * Python formatter); 'last' is asked only when no other can (pylsp
   * offers formatting but formats nothing without its formatter plugins).
   */
  formatter?: 'first' | 'last';
  /**
   * Only where one of its root markers is above the file (ESLint, Tailwind
   * CSS): it serves files other servers answer for, and has nothing to say
   * in a project that does not use it.
   */
  needsMarker?: boolean;
  /** The configuration file that set its command, named when that command is missing. */
  configuredIn?: string;
  /** File names ending so are not the project's sources though their extension matches (TypeScript's declaration files). */
  notSources?: string[];
  /** How it takes in files changed on disk; 'watched' unless said. */
  diskChanges?: DiskChanges;
  /**
   * Folders of build output under the root (cargo's target): never walked
   * for sources, and a change inside is not a change to the project (it
   * would cost a push server's settle window on the next diag).
   */
  outputDirs?: string[];
}

/**
 * How a server takes in files changed on disk by other programs
 * (docs/servers.md, files changed on disk):
 * - watched: workspace/didChangeWatchedFiles for the globs it registered,
 *   applied before the request that follows (gopls, pyright, both
 *   TypeScript servers);
 * - documents: the changed files are also given to it as open documents,
 *   since it re-reads them from disk on a thread of its own and a request
 *   sent at once can be answered from the old text (rust-analyzer);
 * - pinned-documents: the same, kept open for as long as the server runs,
 *   since its index of a closed file is never rebuilt (clangd); past
 *   MAX_PINNED_DOCUMENTS the server is started again instead, and it
 *   re-indexes what changed as it starts.
 */
export type DiskChanges = 'watched' | 'documents' | 'pinned-documents';

/** Ruff lints and formats; it answers no question about code. */
const LINTER_ONLY: (keyof ServerCapabilities)[] = [
  'definitionProvider',
  'typeDefinitionProvider',
  'implementationProvider',
  'referencesProvider',
  'hoverProvider',
  'documentSymbolProvider',
  'workspaceSymbolProvider',
  'callHierarchyProvider',
  'renameProvider',
];

const JS_ROOTS = [['tsconfig.json', 'jsconfig.json', 'package.json']];
const NODE_ENV = ['PATH', 'NODE_PATH', 'NODE_OPTIONS'];
const PYTHON = { '.py': 'python', '.pyi': 'python' };
const PY_ROOTS = [['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile']];
const PY_ENV = ['PATH', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PYTHONPATH'];
const RENAME_EVERYWHERE = { preferences: { useAliasesForRenames: false } };
const PYRIGHT_ENUMERATED = /^(Found \d+ source files?|No source files found)/;

export const BUILTIN_SERVERS: ServerSpec[] = [
  {
    id: 'typescript',
    name: 'TypeScript 7 native (tsc --lsp)',
    family: 'typescript',
    command: 'tsc',
    args: ['--lsp', '--stdio'],
    languages: JS_TS,
    rootMarkers: JS_ROOTS,
    install: 'npm install -D typescript@7 (in the project) or npm install -g typescript@7',
    locate: 'typescript-native',
    workspaces: 'js',
    projects: 'tsconfig',
    envKeys: NODE_ENV,
    readiness: 'immediate',
    diagnostics: 'pull',
    versionArgs: ['--version'],
    notSources: ['.d.ts'],
    style: 'typescript-native',
    // A rename renames: without this a re-export keeps the old name (`export { b as a }`).
    settings: { typescript: RENAME_EVERYWHERE, javascript: RENAME_EVERYWHERE, 'js/ts': RENAME_EVERYWHERE },
  },
  {
    id: 'typescript-language-server',
    name: 'typescript-language-server (tsserver of TypeScript 5/6)',
    family: 'typescript',
    command: 'typescript-language-server',
    args: ['--stdio'],
    languages: JS_TS,
    rootMarkers: JS_ROOTS,
    install: 'npm install -g typescript-language-server typescript@5',
    // The syntax-only server answers while the project loads, with wrong
    // answers (a def on the import line); route everything to the semantic one.
    // A rename renames: without the preference a re-export keeps the old name (`export { b as a }`).
    initializationOptions: {
      tsserver: { useSyntaxServer: 'never', useClientFileWatcher: true },
      preferences: { providePrefixAndSuffixTextForRename: false },
    },
    workspaces: 'js',
    projects: 'tsconfig',
    crossProject: 'references-only',
    envKeys: NODE_ENV,
    pathTools: ['node'],
    readiness: 'immediate',
    diagnostics: 'tsserver',
    versionArgs: ['--version'],
    notSources: ['.d.ts'],
    style: 'tsserver',
  },
  {
    id: 'pyright',
    family: 'python-types',
    name: 'Pyright',
    command: 'pyright-langserver',
    args: ['--stdio'],
    languages: PYTHON,
    rootMarkers: PY_ROOTS,
    rootRule: 'python-package',
    workspaces: 'uv',
    install: 'npm install -g pyright (or pip install pyright)',
    settings: { python: {}, 'python.analysis': { diagnosticMode: 'openFilesOnly' } },
    envKeys: PY_ENV,
    pathTools: ['node', 'python3', 'python'],
    interpreterSetting: 'python.pythonPath',
    readiness: 'enumerated',
    // Pull, announced by registration: a client that offers pull gets no pushes from pyright.
    diagnostics: 'pull',
    readyLog: PYRIGHT_ENUMERATED,
    versionArgs: ['--version'],
    lacks: ['implementationProvider'],
  },
  {
    id: 'basedpyright',
    family: 'python-types',
    name: 'basedpyright',
    command: 'basedpyright-langserver',
    args: ['--stdio'],
    languages: PYTHON,
    rootMarkers: PY_ROOTS,
    rootRule: 'python-package',
    workspaces: 'uv',
    install: 'pip install basedpyright',
    settings: { python: {}, 'basedpyright.analysis': { diagnosticMode: 'openFilesOnly' } },
    envKeys: PY_ENV,
    pathTools: ['node', 'python3', 'python'],
    interpreterSetting: 'python.pythonPath',
    readiness: 'enumerated',
    // Pull, announced by registration: a client that offers pull gets no pushes from pyright.
    diagnostics: 'pull',
    readyLog: PYRIGHT_ENUMERATED,
    versionArgs: ['--version'],
  },
  {
    id: 'pylsp',
    family: 'python-types',
    name: 'python-lsp-server',
    command: 'pylsp',
    args: [],
    languages: PYTHON,
    rootMarkers: PY_ROOTS,
    rootRule: 'python-package',
    workspaces: 'uv',
    install: "pip install 'python-lsp-server[all]'",
    envKeys: PY_ENV,
    readiness: 'immediate',
    versionArgs: ['--version'],
    lacks: ['implementationProvider', 'typeDefinitionProvider', 'workspaceSymbolProvider', 'callHierarchyProvider'],
    formatter: 'last',
  },
  {
    // Jedi's own server: an alternative to pylsp (the same engine, no plugins).
    id: 'jedi-language-server',
    family: 'python-types',
    name: 'jedi-language-server',
    command: 'jedi-language-server',
    args: [],
    languages: PYTHON,
    rootMarkers: PY_ROOTS,
    rootRule: 'python-package',
    workspaces: 'uv',
    install: 'pip install jedi-language-server (or pipx install jedi-language-server)',
    envKeys: PY_ENV,
    readiness: 'immediate',
    versionArgs: ['--version'],
    lacks: ['implementationProvider', 'callHierarchyProvider'],
  },
  {
    id: 'ruff',
    name: 'Ruff (linter)',
    family: 'python-lint',
    command: 'ruff',
    args: ['server'],
    languages: PYTHON,
    rootMarkers: [['pyproject.toml', 'ruff.toml', '.ruff.toml', ...PY_ROOTS[0]!]],
    rootRule: 'python-package',
    workspaces: 'uv',
    install: 'pip install ruff',
    envKeys: PY_ENV,
    readiness: 'immediate',
    versionArgs: ['--version'],
    lacks: LINTER_ONLY,
    formatter: 'first',
  },
  {
    id: 'gopls',
    name: 'gopls',
    command: 'gopls',
    args: [],
    languages: { '.go': 'go', 'go.mod': 'go.mod', 'go.work': 'go.work' },
    rootMarkers: [['go.work'], ['go.mod']],
    install: 'go install golang.org/x/tools/gopls@latest',
    envKeys: [
      'PATH',
      'GOFLAGS',
      'GOWORK',
      'GOPATH',
      'GOROOT',
      'GOOS',
      'GOARCH',
      'GOTOOLCHAIN',
      'GOPROXY',
      'CGO_ENABLED',
    ],
    pathTools: ['go'],
    readiness: 'immediate',
    diagnostics: 'gopls-barrier',
    versionArgs: ['version'],
  },
  {
    id: 'rust-analyzer',
    name: 'rust-analyzer',
    command: 'rust-analyzer',
    args: [],
    languages: { '.rs': 'rust' },
    rootMarkers: [['Cargo.toml', 'rust-project.json']],
    rootRule: 'cargo-workspace',
    install: 'rustup component add rust-analyzer',
    envKeys: ['PATH', 'CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'CARGO_TARGET_DIR', 'RUSTFLAGS'],
    pathTools: ['cargo', 'rustc'],
    readiness: 'quiescent',
    diagnostics: 'pull-and-check',
    versionArgs: ['--version'],
    outputDirs: ['target'],
    diskChanges: 'documents',
  },
  {
    id: 'clangd',
    name: 'clangd',
    command: 'clangd',
    // Every reference and symbol: clangd cuts references at 1,000 and symbols at 100 unless told otherwise.
    args: ['--background-index', '--log=error', '--limit-references=0', '--limit-results=0'],
    languages: {
      '.c': 'c',
      '.h': 'c',
      '.cc': 'cpp',
      '.cpp': 'cpp',
      '.cxx': 'cpp',
      '.hpp': 'cpp',
      '.hh': 'cpp',
      '.hxx': 'cpp',
      '.m': 'objective-c',
      '.mm': 'objective-cpp',
    },
    rootMarkers: [['compile_commands.json', 'compile_flags.txt', '.clangd']],
    install: 'apt-get install clangd (or brew install llvm)',
    envKeys: ['PATH', 'CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH'],
    readiness: 'indexed',
    indexedBy: 'compile_commands.json',
    diagnostics: 'versioned',
    versionArgs: ['--version'],
    diskChanges: 'pinned-documents',
  },
  ...OTHER_SERVERS,
];

/** The language id a server gives a file, by exact file name first, then by extension. */
export function languageIdFor(spec: ServerSpec, path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (spec.languages[base]) return spec.languages[base];
  const dot = base.lastIndexOf('.');
  return dot > 0 ? spec.languages[base.slice(dot)] : undefined;
}

export function serversForFile(specs: ServerSpec[], path: string): ServerSpec[] {
  return specs.filter((s) => languageIdFor(s, path) !== undefined);
}

export function knownExtensions(specs: ServerSpec[]): string[] {
  return [...new Set(specs.flatMap((s) => Object.keys(s.languages)))].sort();
}
