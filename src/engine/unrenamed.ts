/**
 * After a rename: the places in the root, in files the edit did not touch,
 * that still write the old name. A server renames what it knows; clangd
 * knows only the files of its compile database (a platform's `#ifdef`
 * branch, a file no build lists), and a name lspq left behind is worth a
 * word. Read from the disk after the edit, bounded.
 */
import { readWorkspaceText } from '../common/file-size';
import { previewOf } from '../lsp/preview';
import { projectFiles } from '../lsp/project-files';
import type { ServerSpec } from '../lsp/servers/registry';
import { splitLines } from '../lsp/position';
import { findWord } from '../common/target';
import type { Location } from '../answers/places';
import { kindAt, syntaxOf } from '../lsp/lexical';
import { nextTurn } from '../common/turns';

/** Why a place still writes the old name, in the words the warning uses. */
export type Leftover = 'comment or string' | 'built output' | 'another build configuration' | 'outside what it knows';

const BUILT = /(^|\/)(dist|build|out|target|lib-cjs|esm|cjs)\//;
const C_FAMILY = /\.(c|h|cc|cpp|cxx|hpp|hh|hxx|m|mm)$/;

/**
 * What a leftover place is: in a comment or a string (a docstring), in a
 * file of build output, in code another build configuration compiles (Go's
 * `//go:build` or `_GOOS.go` files, C's inactive `#ifdef`), or else
 * outside what the server knows.
 */
export function leftoverOf(path: string, root: string, text: string, line: number, column: number): Leftover {
  const syntax = syntaxOf(path);
  if (syntax && kindAt(text, line, column, syntax) !== 'code') return 'comment or string';
  if (BUILT.test(path.slice(root.length))) return 'built output';
  if (
    path.endsWith('.go') &&
    (/^\/\/go:build /m.test(text) ||
      /_(linux|windows|darwin|freebsd|js|wasip1|plan9|netbsd|openbsd|solaris|aix|ios|android|illumos|dragonfly)(_[a-z0-9]+)?(_test)?\.go$/.test(
        path,
      ))
  )
    return 'another build configuration';
  if (C_FAMILY.test(path) && /^\s*#\s*(if|ifdef|ifndef|elif)\b/m.test(text)) return 'another build configuration';
  return 'outside what it knows';
}

/** Files looked at, and places reported, at most: a warning, not a search engine. */
const MAX_FILES = 20_000;
const MAX_PLACES = 50;
const READ_SLICE = 200;

export async function unrenamed(
  spec: ServerSpec,
  root: string,
  oldName: string,
  touched: Set<string>,
): Promise<(Location & { leftover: Leftover })[]> {
  const places: (Location & { leftover: Leftover })[] = [];
  let read = 0;
  for (const path of await projectFiles(spec, root, MAX_FILES)) {
    if (touched.has(path)) continue;
    // Files read in slices: the daemon answers other questions between them.
    if (++read % READ_SLICE === 0) await nextTurn();
    // Past the size lspq hands a server, or not a regular file: not looked in (the latter is said).
    const text = readWorkspaceText(path, 'source', { quietPastCap: true });
    if (text === undefined) continue;
    if (!text.includes(oldName)) continue;
    for (const [i, line] of splitLines(text).entries()) {
      for (const at of findWord(line, oldName)) {
        const column = at + 1;
        places.push({
          path,
          line: i + 1,
          column,
          endLine: i + 1,
          endColumn: column + [...oldName].length,
          preview: previewOf(line, column),
          leftover: leftoverOf(path, root, text, i + 1, column),
        });
        if (places.length >= MAX_PLACES) return places;
      }
    }
  }
  return places;
}
