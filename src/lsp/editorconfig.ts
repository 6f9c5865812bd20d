/**
 * Formatting options from a file's .editorconfig files (indent style and
 * size, final newline, trailing whitespace), read up the tree until one
 * says `root = true`; the nearer file wins. Only the properties LSP's
 * FormattingOptions carry are read.
 *
 * Written here rather than taken from the `editorconfig` package: that one
 * parses with a WebAssembly module read from its own folder at run time,
 * which a single compiled binary does not carry.
 */
import { dirname, join, relative } from 'node:path';
import type { FormattingOptions } from 'vscode-languageserver-protocol';
import { readWorkspaceText } from '../common/file-size';
import { detectIndentation } from './indent';

interface Section {
  glob: string;
  props: Record<string, string>;
}

/** The sections of one .editorconfig, and whether it is the root. Pure. */
export function parseEditorconfig(text: string): { root: boolean; sections: Section[] } {
  let root = false;
  const sections: Section[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const [, glob] = /^\[(.+)\]$/.exec(line) ?? [];
    if (glob !== undefined) {
      sections.push({ glob, props: {} });
      continue;
    }
    const [, name, given] = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line) ?? [];
    if (name === undefined || given === undefined) continue;
    const key = name.toLowerCase();
    const value = given.toLowerCase();
    const section = sections.at(-1);
    if (section) section.props[key] = value;
    else if (key === 'root') root = value === 'true';
  }
  return { root, sections };
}

/** EditorConfig's glob rule: a pattern without a slash matches the name in any folder below. */
function matches(glob: string, path: string): boolean {
  const pattern = glob.includes('/') ? glob.replace(/^\//, '') : `**/${glob}`;
  return new Bun.Glob(pattern).match(path);
}

/** The properties that apply to `path`, farthest file first so the nearest wins. */
function propertiesFor(path: string): Record<string, string> {
  const files: { dir: string; sections: Section[] }[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const text = readWorkspaceText(join(dir, '.editorconfig'), 'configuration');
    if (text !== undefined) {
      const parsed = parseEditorconfig(text);
      files.unshift({ dir, sections: parsed.sections });
      if (parsed.root) break;
    }
    if (dirname(dir) === dir) break;
  }
  const props: Record<string, string> = {};
  for (const file of files) {
    const rel = relative(file.dir, path);
    for (const section of file.sections) if (matches(section.glob, rel)) Object.assign(props, section.props);
  }
  return props;
}

/** FormattingOptions for `path`: its .editorconfig where it says, else 4 spaces (the servers' own defaults decide the rest). */
/**
 * The options for formatting `path`: what its .editorconfig says, else
 * what the file itself does (tabs or spaces, the width), else 4 spaces.
 */
export function formattingOptions(path: string, text?: string): FormattingOptions {
  const p = propertiesFor(path);
  const own = text === undefined ? undefined : detectIndentation(text);
  const said = p.indent_size === 'tab' ? p.tab_width : (p.indent_size ?? p.tab_width);
  const size = Number(said ?? own?.tabSize ?? '4');
  const options: FormattingOptions = {
    tabSize: Number.isSafeInteger(size) && size > 0 ? size : 4,
    insertSpaces: p.indent_style ? p.indent_style !== 'tab' : (own?.insertSpaces ?? true),
  };
  if (p.insert_final_newline === 'true' || p.insert_final_newline === 'false')
    options.insertFinalNewline = p.insert_final_newline === 'true';
  if (p.trim_trailing_whitespace === 'true' || p.trim_trailing_whitespace === 'false')
    options.trimTrailingWhitespace = p.trim_trailing_whitespace === 'true';
  if (options.insertFinalNewline) options.trimFinalNewlines = true;
  return options;
}
