/**
 * After a rename: the places in the root, in files the edit did not touch,
 * that still write the old name. A server renames what it knows; clangd
 * knows only the files of its compile database (a platform's `#ifdef`
 * branch, a file no build lists), and a name lspq left behind is worth a
 * word. Read from the disk after the edit, bounded.
 */
import { readFileSync, statSync } from 'node:fs';
import { maxFileBytes } from '../lsp/file-size';
import { previewOf } from '../lsp/preview';
import { projectFiles } from '../lsp/project-files';
import type { ServerSpec } from '../lsp/servers/registry';
import { splitLines } from '../lsp/position';
import { findWord } from '../common/target';
import type { Location } from '../answers/places';

/** Files looked at, and places reported, at most: a warning, not a search engine. */
const MAX_FILES = 20_000;
const MAX_PLACES = 50;

export function unrenamed(spec: ServerSpec, root: string, oldName: string, touched: Set<string>): Location[] {
  const places: Location[] = [];
  for (const path of projectFiles(spec, root, MAX_FILES)) {
    if (touched.has(path)) continue;
    let text: string;
    try {
      if (statSync(path).size > maxFileBytes()) continue;
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
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
        });
        if (places.length >= MAX_PLACES) return places;
      }
    }
  }
  return places;
}
