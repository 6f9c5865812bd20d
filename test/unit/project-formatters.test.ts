/**
 * The formatter a project names (src/lsp/servers/formatters.ts): which
 * configuration names which, the nearest folder first, up to the top of
 * the checkout; rustfmt's edition from Cargo.toml; a formatter's whole
 * answer as line edits, --range keeping only those that touch its lines;
 * the one line of a formatter's error output shown; and the note that
 * says which formatter decided.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { formattedEdits } from '../../src/commands/fmt/line-edits';
import { errorLine } from '../../src/commands/fmt/project-formatter';
import { formatterNote } from '../../src/commands/fmt/render';
import { cargoEdition, namedFormatter } from '../../src/lsp/servers/formatters';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-formatters-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A checkout of its own holding `files`, each path to its text. */
function checkout(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  mkdirSync(join(dir, '.git'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const named = (dir: string, file: string) => {
  const found = namedFormatter(join(dir, file));
  return found && { name: found.formatter.name, config: found.config.slice(dir.length + 1) };
};

describe('the formatter a project names', () => {
  test.each([
    ['.prettierrc', '{}\n', 'src/a.ts', 'prettier'],
    ['prettier.config.js', 'export default {}\n', 'src/a.css', 'prettier'],
    ['package.json', '{"name":"p","prettier":{"semi":false}}\n', 'a.md', 'prettier'],
    ['biome.json', '{}\n', 'src/a.tsx', 'biome'],
    ['dprint.json', '{"plugins":["https://plugins.dprint.dev/typescript-0.93.0.wasm"]}\n', 'a.ts', 'dprint'],
    ['ruff.toml', 'line-length = 60\n[format]\nquote-style = "single"\n', 'pkg/a.py', 'ruff'],
    ['.ruff.toml', 'format.quote-style = "single"\n', 'a.pyi', 'ruff'],
    ['pyproject.toml', '[tool.ruff.format]\nquote-style = "single"\n', 'a.py', 'ruff'],
    ['pyproject.toml', '[tool.black]\nline-length = 40\n', 'a.py', 'black'],
    [
      '.pre-commit-config.yaml',
      'repos:\n  - repo: https://github.com/psf/black\n    hooks:\n      - id: black\n',
      'a.py',
      'black',
    ],
    ['rustfmt.toml', 'hard_tabs = true\n', 'src/main.rs', 'rustfmt'],
  ])('%s (%j) names the formatter of %s: %s', (config, text, file, name) => {
    const dir = checkout(`${name}-${config}-${file}`.replace(/\W/g, '_'), { [config]: text, [file]: '' });
    expect(named(dir, file)).toEqual({ name: name, config });
  });

  test('a configuration that names no formatter, or one that does not format the file, is passed over', () => {
    const dir = checkout('none', {
      'package.json': '{"name":"p"}\n',
      'ruff.toml': 'line-length = 60\n',
      'pyproject.toml': '[tool.ruff]\nselect = ["E"]\n',
      'dprint.json': '{"plugins":["https://plugins.dprint.dev/json-0.19.0.wasm"]}\n',
      'rustfmt.toml': '',
      'a.ts': '',
      'a.py': '',
      'a.go': '',
    });
    expect([named(dir, 'a.ts'), named(dir, 'a.py'), named(dir, 'a.go')]).toEqual([undefined, undefined, undefined]);
  });

  test('the nearest folder that names one wins; nothing above the checkout counts', () => {
    const outer = checkout('outer', { '.prettierrc': '{}\n' });
    const inner = join(outer, 'inner');
    mkdirSync(join(inner, '.git'), { recursive: true });
    mkdirSync(join(inner, 'pkg', 'src'), { recursive: true });
    writeFileSync(join(inner, 'biome.json'), '{}\n');
    writeFileSync(join(inner, 'pkg', 'prettier.config.js'), 'export default {}\n');
    writeFileSync(join(inner, 'pkg', 'src', 'a.ts'), '');
    writeFileSync(join(inner, 'b.ts'), '');
    expect(named(inner, 'pkg/src/a.ts')).toEqual({ name: 'prettier', config: 'pkg/prettier.config.js' });
    expect(named(inner, 'b.ts')).toEqual({ name: 'biome', config: 'biome.json' });
    const bare = checkout('outer/bare', { 'c.ts': '' });
    expect(named(bare, 'c.ts')).toBeUndefined();
  });
});

describe('rustfmt is told the edition cargo fmt would tell it', () => {
  test.each([
    ['[package]\nname = "r"\nedition = "2021"\n', '2021'],
    ['[package]\nname = "r"\n', '2015'],
    ['[workspace]\nmembers = ["c"]\n[workspace.package]\nedition = "2024"\n', '2024'],
  ])('%j: %s', (top, edition) => {
    const dir = checkout(`edition-${edition}-${top.length}`, {
      'Cargo.toml': top,
      'c/Cargo.toml': top.startsWith('[workspace]') ? '[package]\nname = "c"\nedition.workspace = true\n' : top,
      'c/src/lib.rs': '',
    });
    expect(cargoEdition(join(dir, 'c', 'src', 'lib.rs'))).toBe(edition);
  });
});

describe("a formatter's answer as edits", () => {
  const before = 'a  =  1\nb = 2\nc  =  3\nd = 4\ne  =  5\n';
  const formatted = 'a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n';

  test('whole: each run of changed lines is one edit, and the text is what it printed', () => {
    expect(formattedEdits(before, formatted)).toEqual({ after: formatted, edits: 3 });
    expect(formattedEdits(formatted, formatted)).toEqual({ after: formatted, edits: 0 });
  });

  test('--range keeps only the edits that touch its lines', () => {
    expect(formattedEdits(before, formatted, { start: 2, end: 3 })).toEqual({
      after: 'a  =  1\nb = 2\nc = 3\nd = 4\ne  =  5\n',
      edits: 1,
    });
    expect(formattedEdits(before, formatted, { start: 4, end: 4 })).toEqual({ after: before, edits: 0 });
  });

  test('lines added and removed: an insertion right after the range touches it, one further on does not', () => {
    const short = 'x = [1,\n2]\ny = 1\nz = 2\n';
    const wrapped = 'x = [1, 2]\ny = 1\n\nz = 2\n';
    expect(formattedEdits(short, wrapped, { start: 1, end: 2 })).toEqual({
      after: 'x = [1, 2]\ny = 1\nz = 2\n',
      edits: 1,
    });
    expect(formattedEdits(short, wrapped, { start: 3, end: 3 })).toEqual({
      after: 'x = [1,\n2]\ny = 1\n\nz = 2\n',
      edits: 1,
    });
  });
});

describe('the line a failing formatter is quoted by', () => {
  test.each([
    ["[error] /p/src/a.ts: SyntaxError: ')' expected. (2:1)\n[error] > 2 |\n", "SyntaxError: ')' expected. (2:1)"],
    ['error: Failed to parse /p/src/a.ts:2:1: unexpected EOF\n', 'Failed to parse src/a.ts:2:1: unexpected EOF'],
    [
      'error: this file contains an unclosed delimiter\n --> <stdin>:1:20\n',
      'this file contains an unclosed delimiter (src/a.ts:1:20)',
    ],
    [
      '/p/src/a.ts:2:1 parse ━━━━━━━━\n\n  × expected `)` but instead the file ends\n  \n    1 │ const x = (1\n',
      'expected `)` but instead the file ends (src/a.ts:2:1)',
    ],
    ['\x1b[31mboom\x1b[0m\n', 'boom'],
    ['\n\n', undefined],
  ])('%j', (stderr, line) => {
    expect(errorLine(stderr, '/p/src/a.ts', 'src/a.ts')).toBe(line);
  });
});

describe('the note that says which formatter decided', () => {
  const prettier = {
    name: 'prettier',
    by: 'project' as const,
    config: '/p/.prettierrc',
    binary: '/p/node_modules/.bin/prettier',
  };
  const ts = { name: 'typescript-language-server', by: 'server' as const };
  const note = (formatters: Parameters<typeof formatterNote>[0]['formatters'], chosen = false) =>
    formatterNote({ formatters, chosen }, '/p', 'check');

  test('the project’s formatter, with its configuration and program', () => {
    expect(note([prettier])).toBe('checked with prettier, as .prettierrc asks (node_modules/.bin/prettier)');
  });

  test('a server’s where the project names none: said too, with what it runs', () => {
    expect([
      note([ts]),
      note([{ name: 'gopls', by: 'server', runs: 'gofmt' }]),
      formatterNote({ formatters: [ts], chosen: false }, '/p', 'write'),
    ]).toEqual([
      'checked with typescript-language-server (the project names no formatter)',
      'checked with gopls, which runs gofmt (the project names no formatter)',
      'formatted with typescript-language-server (the project names no formatter)',
    ]);
  });

  test('files of both: each said, in the order they decided', () => {
    expect(note([prettier, { name: 'ruff', by: 'server' }])).toBe(
      'checked with prettier, as .prettierrc asks (node_modules/.bin/prettier); checked with ruff (the project names no formatter)',
    );
  });

  test('a server’s in place of the project’s left out', () => {
    expect(note([{ ...ts, passedOver: { name: 'prettier', config: '/p/.prettierrc' } }])).toBe(
      "checked with typescript-language-server's formatter, not prettier (.prettierrc), which was left out",
    );
  });

  test('--server chose it: nothing to say', () => {
    expect(note([ts], true)).toBeUndefined();
  });
});
