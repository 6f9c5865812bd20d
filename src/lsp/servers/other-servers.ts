/**
 * The servers lspq knows beyond the core languages: found and started the
 * same way, with the defaults most servers want (answers at once, push or
 * pull diagnostics as they offer, PATH as what changes their answers).
 * Order matters as in the registry: after the core servers, so a server
 * that complements one (ESLint, Tailwind CSS) never answers before it.
 */
import { JS_TS } from './languages';
import type { ServerSpec, WorkspaceCode } from './spec';

/** An install hint for this platform: brew where it is macOS's, what Linux and the rest have otherwise. */
export const onMac = (mac: string, elsewhere: string) => (process.platform === 'darwin' ? mac : elsewhere);

/** ESLint's settings as VS Code's extension sends them; the workspace folder is the root's. */
const FLAT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts'];

const ESLINT_SETTINGS = {
  validate: 'on',
  packageManager: 'npm',
  useESLintClass: false,
  // Flat config where the root has one; else ESLint 9 reads the legacy .eslintrc only when told to.
  useFlatConfig: `<root-has:${FLAT_CONFIGS.join('|')}>`,
  experimental: { useFlatConfig: `<root-has:${FLAT_CONFIGS.join('|')}>` },
  codeActionOnSave: { enable: false, mode: 'all' },
  format: false,
  quiet: false,
  onIgnoredFiles: 'off',
  options: {},
  rulesCustomizations: [],
  run: 'onType',
  problems: { shortenToSingleLine: false },
  nodePath: null,
  workingDirectory: { mode: 'location' },
  workspaceFolder: { uri: '<root-uri>', name: '<root-name>' },
  codeAction: {
    disableRuleComment: { enable: true, location: 'separateLine' },
    showDocumentation: { enable: true },
  },
};

/** Linters and helpers that answer no question about code but diagnostics and actions. */
const NO_NAVIGATION: NonNullable<ServerSpec['lacks']> = [
  'definitionProvider',
  'typeDefinitionProvider',
  'implementationProvider',
  'referencesProvider',
  'documentSymbolProvider',
  'workspaceSymbolProvider',
  'callHierarchyProvider',
  'renameProvider',
  'signatureHelpProvider',
];

const readsData = (why: string): WorkspaceCode => ({ runs: 'nothing', why });
const codeConfig = (runs: string, configs?: string[]): WorkspaceCode => ({
  runs,
  untrusted: 'refuse',
  ...(configs ? { configs } : {}),
});

const LISTED: ServerSpec[] = [
  simple(
    'elixir-ls',
    'ElixirLS',
    'elixir-ls',
    [],
    { '.ex': 'elixir', '.exs': 'elixir', '.heex': 'phoenix-heex' },
    [['mix.exs']],
    'install elixir-ls and put elixir-ls on PATH',
    codeConfig('mix.exs, which Mix compiles and runs'),
  ),
  simple(
    'jdtls',
    'Eclipse JDT LS',
    'jdtls',
    [],
    { '.java': 'java' },
    [['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle']],
    onMac(
      'install jdtls: brew install jdtls',
      "install jdtls: its release archive (Eclipse JDT LS), or your distribution's jdtls package",
    ),
    codeConfig('Gradle and Maven builds and their plugins'),
  ),
  simple(
    'ruby-lsp',
    'Ruby LSP',
    'ruby-lsp',
    [],
    { '.rb': 'ruby', '.rake': 'ruby', Gemfile: 'ruby' },
    [['Gemfile', '.ruby-version']],
    'gem install ruby-lsp',
    codeConfig('Bundler with the Gemfile, which is Ruby'),
  ),
  simple(
    'lua-language-server',
    'lua-language-server',
    'lua-language-server',
    [],
    { '.lua': 'lua' },
    [['.luarc.json', '.luarc.jsonc', '.stylua.toml']],
    onMac(
      'install lua-language-server: brew install lua-language-server',
      "install lua-language-server: its release binary, or your distribution's lua-language-server package",
    ),
    codeConfig('the plugin a .luarc.json names'),
  ),
  {
    ...simple(
      'bash-language-server',
      'bash-language-server',
      'bash-language-server',
      ['start'],
      { '.sh': 'shellscript', '.bash': 'shellscript' },
      [],
      'npm install -g bash-language-server',
      readsData('parses scripts and runs shellcheck, which reads them as text'),
    ),
    // It reads an opened file in the background: until its diagnostics come, a def finds nothing.
    readiness: 'indexed',
    // It publishes for every file sent, an empty list included: the first publish after the text is its answer.
    diagnostics: 'push-each',
  },
  {
    ...simple(
      'yaml-language-server',
      'yaml-language-server',
      'yaml-language-server',
      ['--stdio'],
      { '.yaml': 'yaml', '.yml': 'yaml' },
      [],
      'npm install -g yaml-language-server',
      readsData('reads YAML and JSON schemas as data'),
    ),
    checksDocuments: true,
    // It publishes for every file sent, an empty list included: the first publish after the text is its answer.
    diagnostics: 'push-each',
  },
  {
    ...simple(
      'vscode-json-language-server',
      'JSON (vscode-langservers-extracted)',
      'vscode-json-language-server',
      ['--stdio'],
      { '.json': 'json', '.jsonc': 'jsonc' },
      [],
      'npm install -g vscode-langservers-extracted',
      readsData('reads JSON and JSON schemas as data'),
    ),
    checksDocuments: true,
  },
  {
    ...simple(
      'vscode-css-language-server',
      'CSS (vscode-langservers-extracted)',
      'vscode-css-language-server',
      ['--stdio'],
      { '.css': 'css', '.scss': 'scss', '.less': 'less' },
      [],
      'npm install -g vscode-langservers-extracted',
      readsData('reads stylesheets as data'),
    ),
    checksDocuments: true,
  },
  {
    ...simple(
      'vscode-html-language-server',
      'HTML (vscode-langservers-extracted)',
      'vscode-html-language-server',
      ['--stdio'],
      { '.html': 'html', '.htm': 'html' },
      [],
      'npm install -g vscode-langservers-extracted',
      readsData('reads HTML as data'),
    ),
    checksDocuments: true,
  },
  {
    ...simple(
      'docker-langserver',
      'Dockerfile (dockerfile-language-server-nodejs)',
      'docker-langserver',
      ['--stdio'],
      { Dockerfile: 'dockerfile', Containerfile: 'dockerfile', '.dockerfile': 'dockerfile' },
      [],
      'npm install -g dockerfile-language-server-nodejs',
      readsData('reads Dockerfiles as data; builds nothing'),
    ),
    // It publishes for every file sent, an empty list included: the first publish after the text is its answer.
    diagnostics: 'push-each',
    // A text sent again unchanged it does not check again: what it last said of the text stands.
    diagnosesTextAlone: true,
  },
  {
    ...simple(
      'intelephense',
      'Intelephense (PHP)',
      'intelephense',
      ['--stdio'],
      { '.php': 'php' },
      [['composer.json']],
      'npm install -g intelephense',
      readsData('parses PHP itself; runs no PHP'),
    ),
    readiness: 'indexing',
    // Its references leave out overriding methods (monolog's isHandling: 17, then 20) unless the place was hovered
    // first: asked again, the second was whole, but once the file was opened anew, partial again.
    settles: true,
    resolvesOnHover: true,
    fileEvents: ['**/*.php'],
    paid: {
      capabilities: [
        'implementationProvider',
        'typeDefinitionProvider',
        'renameProvider',
        'callHierarchyProvider',
        'codeActionProvider',
      ],
      how: "a licence (intelephense's licenceKey, in .lsp.json's initializationOptions)",
    },
  },
  simple(
    'svelteserver',
    'Svelte language server',
    'svelteserver',
    ['--stdio'],
    { '.svelte': 'svelte' },
    [['svelte.config.js', 'svelte.config.mjs', 'package.json']],
    'npm install -g svelte-language-server typescript-svelte-plugin',
    codeConfig("the workspace's svelte compiler and TypeScript", [
      'svelte.config.js',
      'svelte.config.mjs',
      'svelte.config.cjs',
    ]),
  ),
  {
    ...simple(
      'vue-language-server',
      'Vue (Volar)',
      'vue-language-server',
      ['--stdio'],
      { '.vue': 'vue' },
      [['package.json']],
      'npm install -g @vue/language-server @vue/typescript-plugin',
      codeConfig("the workspace's TypeScript and its plugins"),
    ),
    // Hybrid mode: script and template expressions are typescript-language-server's (with @vue/typescript-plugin);
    // this server's own questions to TypeScript are relayed there.
    relaysTsserverTo: '@vue/typescript-plugin',
    // Its outline has the blocks and the template's elements; the TypeScript server's has nothing of a .vue file.
    answersFirst: ['documentSymbolProvider'],
  },
  {
    ...simple(
      'graphql-lsp',
      'GraphQL language service',
      'graphql-lsp',
      ['server', '-m', 'stream'],
      { '.graphql': 'graphql', '.gql': 'graphql' },
      [
        [
          '.graphqlrc',
          '.graphqlrc.yml',
          '.graphqlrc.yaml',
          '.graphqlrc.json',
          'graphql.config.js',
          'graphql.config.ts',
        ],
      ],
      'npm install -g graphql-language-service-cli',
      codeConfig('its configuration where that is code', [
        'graphql.config.js',
        'graphql.config.ts',
        'graphql.config.cjs',
        'graphql.config.mjs',
        '.graphqlrc.js',
        '.graphqlrc.ts',
      ]),
    ),
    // It loads the project's config and schema after initialize, and answers a definition with nothing until then.
    readiness: 'enumerated',
    readyLog: /^GraphQL Language Server caches initialized/,
    failedProjectLog: /^WARNING: graphql-config error, only highlighting is enabled/,
    // It publishes for every file sent, an empty list included, and under load over 1.5 s after its ready line:
    // a quiet spell with no publish was taken for a clean file (a schema that does not build said 'no problems').
    diagnostics: 'push-each',
  },
  simple(
    'terraform-ls',
    'Terraform (terraform-ls)',
    'terraform-ls',
    ['serve'],
    { '.tf': 'terraform', '.tfvars': 'terraform-vars' },
    [['.terraform', '.terraform.lock.hcl']],
    onMac(
      'install terraform-ls: brew install hashicorp/tap/terraform-ls',
      "install terraform-ls: its release binary, or HashiCorp's apt repository (apt-get install terraform-ls)",
    ),
    codeConfig('terraform, which fetches and runs the providers the configuration names'),
  ),
  {
    ...simple(
      'taplo',
      'Taplo (TOML)',
      'taplo',
      ['lsp', 'stdio'],
      { '.toml': 'toml' },
      [['.taplo.toml', 'taplo.toml']],
      "cargo install taplo-cli --locked --features lsp (npm's and PyPI's taplo have no language server)",
      readsData('reads TOML as data'),
    ),
    checksDocuments: true,
    // It publishes for every file sent, an empty list included: the first publish after the text is its answer.
    diagnostics: 'push-each',
  },
  {
    ...simple(
      'marksman',
      'Marksman (Markdown)',
      'marksman',
      ['server'],
      { '.md': 'markdown', '.markdown': 'markdown' },
      [['.marksman.toml']],
      onMac(
        'install marksman: brew install marksman',
        'install marksman: its release binary, or snap install marksman',
      ),
      readsData('reads Markdown as data'),
    ),
    checksDocuments: true,
  },
  simple(
    'zls',
    'ZLS (Zig)',
    'zls',
    [],
    { '.zig': 'zig', '.zon': 'zig' },
    [['build.zig', 'zls.json']],
    onMac('install zls: brew install zls', 'install zls: its release binary, matching your zig'),
    codeConfig('build.zig, which zig build runs'),
  ),
  simple(
    'csharp-ls',
    'csharp-ls (C#)',
    'csharp-ls',
    [],
    { '.cs': 'csharp' },
    [['global.json', 'Directory.Build.props', 'nuget.config']],
    'dotnet tool install --global csharp-ls',
    codeConfig('MSBuild, which runs the tasks of the project files'),
  ),
  simple(
    'sourcekit-lsp',
    'SourceKit-LSP (Swift)',
    'sourcekit-lsp',
    [],
    { '.swift': 'swift' },
    [['Package.swift']],
    'install Swift (sourcekit-lsp comes with the toolchain)',
    codeConfig('Package.swift, which SwiftPM runs'),
  ),
  simple(
    'kotlin-language-server',
    'Kotlin language server',
    'kotlin-language-server',
    [],
    { '.kt': 'kotlin', '.kts': 'kotlin' },
    [['settings.gradle.kts', 'settings.gradle', 'build.gradle.kts', 'build.gradle', 'pom.xml']],
    onMac(
      'install kotlin-language-server: brew install kotlin-language-server',
      'install kotlin-language-server: its release archive',
    ),
    codeConfig('Gradle builds and their plugins'),
  ),
  {
    ...simple(
      'vscode-eslint-language-server',
      'ESLint (vscode-langservers-extracted)',
      'vscode-eslint-language-server',
      ['--stdio'],
      JS_TS,
      [
        [
          ...FLAT_CONFIGS,
          '.eslintrc.js',
          '.eslintrc.cjs',
          '.eslintrc.json',
          '.eslintrc.yml',
          '.eslintrc.yaml',
          '.eslintrc',
        ],
      ],
      'npm install -g vscode-langservers-extracted (and eslint in the project)',
      codeConfig("the project's eslint and the plugins its configuration loads", [
        'eslint.config.js',
        'eslint.config.mjs',
        'eslint.config.cjs',
        'eslint.config.ts',
        '.eslintrc.js',
        '.eslintrc.cjs',
        '.eslintrc.json',
        '.eslintrc.yml',
        '.eslintrc.yaml',
        '.eslintrc',
      ]),
    ),
    needsMarker: true,
    lacks: [...NO_NAVIGATION, 'hoverProvider'],
    // The settings VS Code's ESLint extension gives it: without a workspace folder it fails every file.
    settings: ESLINT_SETTINGS,
    needsPackage: 'eslint',
    failureLog: /^An unexpected error occurred/,
  },
  {
    ...simple(
      'tailwindcss-language-server',
      'Tailwind CSS IntelliSense',
      'tailwindcss-language-server',
      ['--stdio'],
      {
        '.css': 'css',
        '.html': 'html',
        '.tsx': 'typescriptreact',
        '.jsx': 'javascriptreact',
        '.vue': 'vue',
        '.svelte': 'svelte',
      },
      [
        [
          'tailwind.config.js',
          'tailwind.config.cjs',
          'tailwind.config.mjs',
          'tailwind.config.ts',
          // Tailwind 4 has no configuration file: its CSS imports the installed package.
          'node_modules/tailwindcss/package.json',
        ],
      ],
      'npm install -g @tailwindcss/language-server',
      codeConfig("the project's tailwindcss and the plugins its configuration loads", [
        'tailwind.config.js',
        'tailwind.config.ts',
        'tailwind.config.cjs',
        'tailwind.config.mjs',
      ]),
    ),
    needsMarker: true,
    lacks: NO_NAVIGATION,
    // It builds a project (a stylesheet importing tailwindcss, or a configuration) when a file of it is first
    // opened; until then a hover is empty. A file no project takes in is said in its log, and gets nothing.
    readiness: 'enumerated',
    readyNotification: '@/tailwindCSS/projectInitialized',
    // Node's inspect of the path: on one line, or over several where it is long.
    unservedLog: /^\[GLOBAL\] No matching project for document \{\s*fsPath: '([^']+)'/,
    diagnostics: 'push-each',
  },
];

/**
 * The servers besides the language's own, each with what it runs of a
 * workspace's code (docs/security.md) beside it: one whose configuration
 * is code runs only in a trusted workspace; one with none said has not
 * been audited and runs only there too.
 */
export const OTHER_SERVERS: ServerSpec[] = LISTED;

export function simple(
  id: string,
  name: string,
  command: string,
  args: string[],
  languages: Record<string, string>,
  rootMarkers: string[][],
  install: string,
  workspaceCode?: WorkspaceCode,
): ServerSpec {
  return {
    id,
    name,
    command,
    args,
    languages,
    rootMarkers,
    install,
    ...(workspaceCode ? { workspaceCode } : {}),
    envKeys: ['PATH'],
    readiness: 'immediate',
    versionArgs: ['--version'],
  };
}
