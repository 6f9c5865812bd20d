/**
 * The formatters a project names in its own configuration, as data beside
 * the servers: the configuration that makes each the project's, the files
 * it formats, how it is given a file on stdin, what it says of a file it
 * cannot parse, and its install hint. `lspq fmt` runs the one named
 * nearest a file (src/commands/fmt/project-formatter.ts); found as servers
 * are (locate.ts).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { isRecord } from '../../common/records';
import { readWorkspaceJson, readWorkspaceText } from '../../common/file-size';
import { checkoutTop } from '../../project/checkout';
import type { Trust } from '../../trust/decision';

export interface Formatter {
  name: string;
  command: string;
  /** The file in `dir` that names it the project's formatter, if one does. */
  namedIn: (dir: string) => string | undefined;
  /** Whether it formats `path` as configured by `config` (the file that named it). */
  formats: (path: string, config: string) => boolean;
  /** Its words to format stdin as the file `path` and print the result. */
  args: (path: string, config: string) => string[];
  /** What its error says of a file it cannot parse (else it failed). */
  parseError: RegExp;
  install: string;
  /** Kept in the project's Python environment: looked for there before PATH. */
  python?: true;
}

/** The project's formatter for a file: which, and the configuration that names it. */
export interface NamedFormatter {
  formatter: Formatter;
  config: string;
}

const text = (path: string) => readWorkspaceText(path, 'configuration');
const firstOf = (dir: string, names: readonly string[]) => names.find((n) => existsSync(join(dir, n)));
const byExtension = (extensions: readonly string[]) => (path: string) => extensions.includes(extname(path));

const JS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'];
const JSON_FILES = ['.json', '.jsonc', '.json5'];
const STYLES = ['.css', '.scss', '.less'];
const MARKUP = ['.html', '.htm', '.vue'];
const MARKDOWN = ['.md', '.markdown', '.mdx'];
const YAML = ['.yaml', '.yml'];
const GRAPHQL = ['.graphql', '.gql'];
const PYTHON = ['.py', '.pyi'];

const PRETTIER_FILES = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  '.prettierrc.cts',
  '.prettierrc.mts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
  'prettier.config.cts',
  'prettier.config.mts',
];

/** A `.pre-commit-config.yaml` in `dir` that runs the hook `id`: the project formats with it. */
function preCommitRuns(dir: string, id: string): string | undefined {
  const config = text(join(dir, '.pre-commit-config.yaml'));
  return config && new RegExp(`^\\s*-?\\s*id:\\s*['"]?${id}['"]?\\s*$`, 'm').test(config)
    ? '.pre-commit-config.yaml'
    : undefined;
}

/** The `[tool.NAME]` table (or one below it) of the pyproject.toml in `dir`. */
const pyprojectHas = (dir: string, table: RegExp) => table.test(text(join(dir, 'pyproject.toml')) ?? '');

/** What each dprint plugin formats, by a word of its URL. */
const DPRINT_PLUGINS: [RegExp, readonly string[]][] = [
  [/typescript/, JS],
  [/json/, JSON_FILES],
  [/markdown/, MARKDOWN],
  [/toml/, ['.toml']],
  [/malva/, STYLES],
  [/markup/, [...MARKUP, '.svelte', '.astro']],
  [/yaml/, YAML],
  [/graphql/, GRAPHQL],
  [/ruff/, PYTHON],
  [/biome/, [...JS, ...JSON_FILES]],
  [/prettier/, [...JS, ...JSON_FILES, ...STYLES, ...MARKUP, ...MARKDOWN, ...YAML, ...GRAPHQL]],
];

/** The lines of a TOML table (`package`, `workspace.package`), up to the next table; undefined where it has none. */
function tomlTable(toml: string, name: string): string | undefined {
  const lines = toml.split('\n');
  const at = lines.findIndex((l) => l.trim() === `[${name}]`);
  if (at < 0) return undefined;
  const end = lines.findIndex((l, i) => i > at && l.trim().startsWith('['));
  return lines.slice(at + 1, end < 0 ? undefined : end).join('\n');
}

const EDITION = /^\s*edition\s*=\s*["'](\d{4})["']/m;
const INHERITED = /^\s*edition\s*(\.\s*workspace\s*=\s*true|=\s*\{\s*workspace\s*=\s*true)/m;

/**
 * The edition rustfmt parses a crate's file as, as cargo fmt tells it: the
 * nearest Cargo.toml's `[package] edition`, its workspace's
 * `[workspace.package]` one where it inherits it, else 2015 (cargo's).
 */
export function cargoEdition(path: string): string {
  const top = checkoutTop(dirname(path));
  let table = 'package';
  for (let d = dirname(path); ; d = dirname(d)) {
    const toml = text(join(d, 'Cargo.toml')) ?? '';
    let section = tomlTable(toml, table);
    if (section !== undefined && table === 'package' && INHERITED.test(section)) {
      table = 'workspace.package';
      section = tomlTable(toml, table);
    }
    if (section !== undefined) return EDITION.exec(section)?.[1] ?? '2015';
    if (d === top || dirname(d) === d) return '2015';
  }
}

/** In the order asked of each folder: the first that one names is the project's. */
export const FORMATTERS: Formatter[] = [
  {
    name: 'prettier',
    command: 'prettier',
    namedIn: (dir) => {
      const file = firstOf(dir, PRETTIER_FILES);
      if (file) return file;
      const pkg = readWorkspaceJson(join(dir, 'package.json'));
      return isRecord(pkg) && pkg.prettier !== undefined ? 'package.json' : undefined;
    },
    formats: byExtension([...JS, ...JSON_FILES, ...STYLES, ...MARKUP, ...MARKDOWN, ...YAML, ...GRAPHQL]),
    args: (path) => ['--stdin-filepath', path],
    parseError: /SyntaxError/,
    install: 'npm install --save-dev prettier',
  },
  {
    name: 'biome',
    command: 'biome',
    namedIn: (dir) => firstOf(dir, ['biome.json', 'biome.jsonc']),
    formats: byExtension([...JS, '.json', '.jsonc', '.css', ...GRAPHQL]),
    args: (path, config) => ['format', `--stdin-file-path=${path}`, `--config-path=${dirname(config)}`, '--colors=off'],
    parseError: /\bparse\b|syntax/i,
    install: 'npm install --save-dev @biomejs/biome',
  },
  {
    name: 'dprint',
    command: 'dprint',
    namedIn: (dir) => firstOf(dir, ['dprint.json', '.dprint.json', 'dprint.jsonc', '.dprint.jsonc']),
    formats: (path, config) => {
      const plugins = [...(text(config) ?? '').matchAll(/"(https?:[^"]+\.(?:wasm|json)[^"]*)"/g)].map(
        (m) => m[1] ?? '',
      );
      const ext = extname(path);
      return DPRINT_PLUGINS.some(([word, exts]) => exts.includes(ext) && plugins.some((p) => word.test(basename(p))));
    },
    args: (path, config) => ['fmt', '--stdin', path, '--config', config],
    parseError: /syntax error|expected/i,
    install: 'npm install --save-dev dprint',
  },
  {
    name: 'ruff',
    command: 'ruff',
    namedIn: (dir) => {
      const own = firstOf(dir, ['ruff.toml', '.ruff.toml']);
      if (own && /^\s*(\[format\]|format\.)/m.test(text(join(dir, own)) ?? '')) return own;
      if (pyprojectHas(dir, /^\s*\[tool\.ruff\.format\]/m)) return 'pyproject.toml';
      return preCommitRuns(dir, 'ruff-format');
    },
    formats: byExtension(PYTHON),
    args: (path) => ['format', '--stdin-filename', path, '-'],
    parseError: /Failed to parse/,
    install: 'pip install ruff',
    python: true,
  },
  {
    name: 'black',
    command: 'black',
    namedIn: (dir) => (pyprojectHas(dir, /^\s*\[tool\.black\]/m) ? 'pyproject.toml' : preCommitRuns(dir, 'black')),
    formats: byExtension(PYTHON),
    args: (path) => ['-q', '--stdin-filename', path, '-'],
    parseError: /cannot parse/i,
    install: 'pip install black',
    python: true,
  },
  {
    name: 'rustfmt',
    command: 'rustfmt',
    namedIn: (dir) => firstOf(dir, ['rustfmt.toml', '.rustfmt.toml']),
    formats: byExtension(['.rs']),
    // On stdin rustfmt finds no configuration by itself: it is named, as cargo fmt names the edition.
    args: (path, config) => ['--emit', 'stdout', '--edition', cargoEdition(path), '--config-path', config],
    parseError: /<stdin>:\d+:\d+/,
    install: 'rustup component add rustfmt',
  },
];

/**
 * The formatter the project names for `path`: the first of FORMATTERS
 * named by a configuration in the nearest folder, at or above the file's,
 * that names one for it, up to the top of its checkout (outside one, below
 * the home folder).
 */
export function namedFormatter(path: string): NamedFormatter | undefined {
  const top = checkoutTop(dirname(path));
  const home = homedir();
  for (let d = dirname(path); ; d = dirname(d)) {
    if (!top && (d === home || dirname(d) === d)) return undefined;
    for (const formatter of FORMATTERS) {
      const name = formatter.namedIn(d);
      const config = name === undefined ? undefined : join(d, name);
      if (config && formatter.formats(path, config)) return { formatter, config };
    }
    if (d === top || dirname(d) === d) return undefined;
  }
}

/**
 * The workspace a project's formatter runs for (the checkout its
 * configuration lies in), where it may run: trusted, or in the box. Its
 * configuration and plugins are the workspace's code: with neither, it is
 * left out, said by the question's trust (and listed by `trust --explain`).
 */
export function formatterWorkspace(named: NamedFormatter, trust: Trust): string | undefined {
  const dir = dirname(named.config);
  const root = checkoutTop(dir) ?? dir;
  if (trust.covers(root) || trust.box !== undefined) return root;
  trust.leaveOut(`the project's formatter ${named.formatter.name}`, root, { file: named.config });
  return undefined;
}
