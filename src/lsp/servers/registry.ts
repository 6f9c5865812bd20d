import { join } from 'node:path';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { JS_TS } from './languages';
import { onMac, OTHER_SERVERS } from './other-servers';
import type { ServerSpec } from './spec';

export type { DiagnosticsStrategy, DiskChanges, Readiness, ServerSpec } from './spec';

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
  'signatureHelpProvider',
];

/**
 * A TypeScript project is its tsconfig (or jsconfig): a folder with only a
 * package.json inside one (a published package's tree, as zod's sources
 * ship a package.json in many folders) belongs to that project, not to a
 * server of its own. package.json roots only where no config is above.
 */
const JS_ROOTS = [['tsconfig.json', 'jsconfig.json'], ['package.json']];
const NODE_ENV = ['PATH', 'NODE_PATH', 'NODE_OPTIONS'];
const PYTHON = { '.py': 'python', '.pyi': 'python' };
const PY_MARKERS = ['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile'];
const PY_ROOTS = [PY_MARKERS];
const PY_ENV = ['PATH', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PYTHONPATH'];
const RENAME_EVERYWHERE = { preferences: { useAliasesForRenames: false } };
/** pylsp's plugins that load code the repository's configuration names. */
const PYLSP_PLUGINS_OFF = {
  pylint: { enabled: false },
  flake8: { enabled: false },
  pylsp_mypy: { enabled: false },
  rope_autoimport: { enabled: false },
  rope_completion: { enabled: false },
};
/** rust-analyzer in an untrusted repository: nothing of the crate is built or run. */
const RUST_UNTRUSTED = {
  cargo: { buildScripts: { enable: false } },
  procMacro: { enable: false },
  checkOnSave: false,
};
const PYRIGHT_ENUMERATED = /^(Found \d+ source files?|No source files found)/;

/**
 * The servers lspq knows, as data. Order matters: for a file, the first
 * server whose binary is found answers (diag asks them all).
 */
export const BUILTIN_SERVERS: ServerSpec[] = [
  {
    id: 'typescript',
    name: 'TypeScript 7 native (tsc --lsp)',
    family: 'typescript',
    command: 'tsc',
    args: ['--lsp', '--stdio'],
    languages: JS_TS,
    rootMarkers: JS_ROOTS,
    // It loads no tsserver plugins: a .ts file's uses in Svelte components are unknown to it.
    blindTo: ['svelte', 'vue'],
    install: 'npm install -D typescript@7 (in the project) or npm install -g typescript@7',
    locate: 'typescript-native',
    showsConfig: true,
    updatesImportsOnMove: true,
    workspaces: 'js',
    projects: 'tsconfig',
    envKeys: NODE_ENV,
    readiness: 'immediate',
    diagnostics: 'pull',
    // Imports resolve to an open document not on disk; a Deleted event hides a file on disk until Created.
    memoryFiles: { created: true, inFoldersOnDisk: true, deleted: 'event' },
    versionArgs: ['--version'],
    notSources: ['.d.ts', '.d.cts', '.d.mts'],
    style: 'typescript-native',
    workspaceCode: {
      runs: 'nothing',
      why: 'loads no plugins; its binary in the repository runs only where git does not track it, or once trusted',
    },
    // A rename renames: without this a re-export keeps the old name (`export { b as a }`).
    settings: { typescript: RENAME_EVERYWHERE, javascript: RENAME_EVERYWHERE, 'js/ts': RENAME_EVERYWHERE },
  },
  {
    id: 'typescript-language-server',
    name: 'typescript-language-server (tsserver of TypeScript 5/6)',
    family: 'typescript',
    command: 'typescript-language-server',
    args: ['--stdio'],
    // .vue only with Vue's plugin loaded (tsPlugins below; a project without it is not asked of .vue files).
    languages: { ...JS_TS, '.vue': 'vue' },
    rootMarkers: JS_ROOTS,
    install: 'npm install -g typescript-language-server typescript@5',
    // The syntax-only server answers while the project loads, with wrong
    // answers (a def on the import line); route everything to the semantic one.
    // A rename renames: without the preference a re-export keeps the old name (`export { b as a }`).
    // No automatic type acquisition: it would run npm for the types of whatever package.json names.
    initializationOptions: {
      disableAutomaticTypingAcquisition: true,
      tsserver: { useSyntaxServer: 'never', useClientFileWatcher: true },
      preferences: { providePrefixAndSuffixTextForRename: false },
    },
    workspaces: 'js',
    projects: 'tsconfig',
    crossProject: 'references-only',
    updatesImportsOnMove: true,
    envKeys: NODE_ENV,
    pathTools: ['node'],
    readiness: 'immediate',
    diagnostics: 'tsserver',
    versionArgs: ['--version'],
    // It lives on when its tsserver dies (killed, out of its heap), answering nothing from then on.
    worker: {
      exitLog: /\[tsserver\] Exited\. Code: \S+\. Signal: \S+/,
      command: /(^|\/)tsserver\.js$/,
      // tsserver's `status` (its version) through typescript.tsserverRequest: its response, or with no tsserver
      // behind it, typescript-language-server's `noServer` or `cancelled` in its place.
      probe: {
        command: 'typescript.tsserverRequest',
        arguments: ['status', {}],
        answered: (answer) => typeof answer === 'object' && answer !== null && 'success' in answer,
      },
    },
    notSources: ['.d.ts', '.d.cts', '.d.mts'],
    style: 'tsserver',
    tsPlugins: [
      { name: 'typescript-svelte-plugin', forPackage: 'svelte', beside: 'svelteserver', reaches: ['.svelte'] },
      // Vue's hybrid mode: the script and template of a .vue file are this server's to answer, through the plugin.
      {
        name: '@vue/typescript-plugin',
        forPackage: 'vue',
        beside: 'vue-language-server',
        languages: { '.vue': 'vue' },
        reaches: ['.vue'],
      },
    ],
    // tsserver resolves the plugins a tsconfig names beside the TypeScript it runs: the user's loads none of the repository's.
    workspaceCode: {
      runs: "the workspace's TypeScript (node_modules/typescript) and the tsserver plugins its tsconfig names",
      untrusted: { userTypeScript: true },
    },
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
    packagePaths: (dirs) => ({ settings: { 'python.analysis': { extraPaths: dirs } } }),
    readiness: 'enumerated',
    // Cold, references in string annotations come only from the second ask (httpx: 190 places, then 192).
    settles: true,
    // Pull, announced by registration: a client that offers pull gets no pushes from pyright.
    diagnostics: 'pull',
    readyLog: PYRIGHT_ENUMERATED,
    versionArgs: ['--version'],
    lacks: ['implementationProvider'],
    workspaceCode: {
      runs: 'nothing',
      why: "reads its configuration as data; the repository's Python environment and interpreter run only once trusted",
    },
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
    updatesImportsOnMove: true,
    settings: { python: {}, 'basedpyright.analysis': { diagnosticMode: 'openFilesOnly' } },
    envKeys: PY_ENV,
    pathTools: ['node', 'python3', 'python'],
    interpreterSetting: 'python.pythonPath',
    packagePaths: (dirs) => ({ settings: { 'basedpyright.analysis': { extraPaths: dirs } } }),
    readiness: 'enumerated',
    // Cold, references in string annotations come only from the second ask (httpx: 190 places, then 192).
    settles: true,
    // Pull, announced by registration: a client that offers pull gets no pushes from pyright.
    diagnostics: 'pull',
    readyLog: PYRIGHT_ENUMERATED,
    versionArgs: ['--version'],
    workspaceCode: {
      runs: 'nothing',
      why: "reads its configuration as data; the repository's Python environment and interpreter run only once trusted",
    },
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
    // It lints every file sent, publishing an empty list too: the first publish after the text is its answer.
    diagnostics: 'push-each',
    packagePaths: (dirs) => ({ settings: { pylsp: { plugins: { jedi: { extra_paths: dirs } } } } }),
    formatsOneAtATime: true,
    quietFormatter: {
      by: 'probe',
      file: '.lspq-format-probe.py',
      // Spaces no formatter keeps (autopep8's E221 and E222, yapf's, black's, ruff's).
      text: 'x  =  1\n',
      plugins: 'autopep8, yapf, python-lsp-black or python-lsp-ruff',
    },
    // Its linters and rope read configuration that names code to load (pylint's load-plugins, mypy's plugins, rope's config.py).
    workspaceCode: {
      runs: "plugins its linters load from the repository's configuration (pylint, flake8, mypy, rope)",
      untrusted: { settings: { pylsp: { plugins: PYLSP_PLUGINS_OFF } } },
    },
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
    countsCodePoints: true,
    packagePaths: (dirs) => ({ initializationOptions: { workspace: { extraPaths: dirs } } }),
    workspaceCode: {
      runs: 'nothing',
      why: "jedi reads the code as text; the repository's environment runs only once trusted",
    },
  },
  {
    id: 'ruff',
    name: 'Ruff (linter)',
    family: 'python-lint',
    command: 'ruff',
    args: ['server'],
    languages: PYTHON,
    rootMarkers: [['pyproject.toml', 'ruff.toml', '.ruff.toml', ...PY_MARKERS]],
    rootRule: 'python-package',
    workspaces: 'uv',
    install: 'pip install ruff',
    envKeys: PY_ENV,
    readiness: 'immediate',
    versionArgs: ['--version'],
    lacks: LINTER_ONLY,
    formatter: 'first',
    workspaceCode: { runs: 'nothing', why: 'reads pyproject.toml and ruff.toml as data; runs no plugin' },
  },
  {
    id: 'gopls',
    name: 'gopls',
    command: 'gopls',
    args: [],
    languages: { '.go': 'go', 'go.mod': 'go.mod', 'go.work': 'go.work' },
    formatsWith: 'gofmt',
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
    // Its overlays may name files not on disk; an empty overlay is no file to it (a package's last one included).
    memoryFiles: { created: true, deleted: 'empty' },
    versionArgs: ['version'],
    // gopls answers workspace/symbol with its best 100 matches and no word that it stopped.
    symbolCap: 100,
    // It loads this platform's files only: b_windows.go is outside its answers here.
    buildConfigurations: 'go',
    // go runs the toolchain a go.mod or go.work names (downloading it) unless told to use the local one.
    workspaceCode: {
      runs: 'the Go toolchain its go.mod or go.work names in a toolchain line',
      untrusted: { env: { GOTOOLCHAIN: 'local' } },
    },
  },
  {
    id: 'rust-analyzer',
    name: 'rust-analyzer',
    command: 'rust-analyzer',
    args: [],
    languages: { '.rs': 'rust' },
    formatsWith: 'rustfmt',
    rootMarkers: [['Cargo.toml', 'rust-project.json']],
    rootRule: 'cargo-workspace',
    install: 'rustup component add rust-analyzer',
    // A module's file moved: its `mod` and `use` lines follow.
    updatesImportsOnMove: true,
    // rustfmt formats whole files only.
    lacks: ['documentRangeFormattingProvider'],
    envKeys: ['PATH', 'CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'CARGO_TARGET_DIR', 'RUSTFLAGS'],
    pathTools: ['cargo', 'rustc'],
    readiness: 'quiescent',
    diagnostics: 'pull-and-check',
    // An open document is a file of its module tree; a file on disk stays there whatever it is told.
    memoryFiles: { created: true },
    quietFormatter: { by: 'syntax-errors', formatter: 'rustfmt', code: 'syntax-error' },
    versionArgs: ['--version'],
    outputDirs: ['target'],
    diskChanges: 'documents',
    // Loading a workspace builds and runs build scripts and proc macros; cargo check on save builds the crate.
    workspaceCode: {
      runs: "build scripts (build.rs), proc macros and cargo check, which compile and run the repository's code",
      untrusted: {
        settings: { 'rust-analyzer': RUST_UNTRUSTED },
        initializationOptions: RUST_UNTRUSTED,
        env: { RUSTC_WRAPPER: '', RUSTC_WORKSPACE_WRAPPER: '' },
        // What it loads is named, so no rust-project.json it finds can name a sysroot of programs.
        linkedProjects: {
          files: ['Cargo.toml'],
          overlay: (paths) => ({
            settings: { 'rust-analyzer': { linkedProjects: paths } },
            initializationOptions: { linkedProjects: paths },
          }),
        },
        // Its cargo and rustc are the user's toolchain's, run by path: no rust-toolchain file picks another.
        userSysroot: {
          overlay: (sysroot) => ({
            settings: { 'rust-analyzer': { cargo: { sysroot } } },
            initializationOptions: { cargo: { sysroot } },
            env: {
              RUSTUP_TOOLCHAIN: sysroot,
              RUSTC: join(sysroot, 'bin', 'rustc'),
              CARGO: join(sysroot, 'bin', 'cargo'),
            },
          }),
        },
        // Cargo reads its configuration from every folder above the crate, and rust-analyzer its own TOML: both
        // can name programs (build.rustc, runners, override commands), whatever lspq sets.
        refuseWith: {
          files: ['.cargo/config.toml', '.cargo/config', 'rust-analyzer.toml'],
          home: { env: 'CARGO_HOME', fallback: '.cargo' },
        },
        loses: { diagnostics: "cargo check's (it builds the crate and runs its build scripts)" },
      },
    },
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
    install: onMac('brew install llvm', "apt-get install clangd (or your distribution's clangd)"),
    envKeys: ['PATH', 'CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH'],
    readiness: 'indexed',
    indexedBy: 'compile_commands.json',
    diagnostics: 'versioned',
    versionArgs: ['--version'],
    diskChanges: 'pinned-documents',
    workspaceCode: {
      runs: 'nothing',
      why: 'parses with its own compiler: runs no command of compile_commands.json and loads no compiler plugin',
    },
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
