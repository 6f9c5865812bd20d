/**
 * `lspq trust --explain`: what trusting a folder would let run, found by
 * asking the runtime's own decision (the servers in force, where each is
 * found, its untrusted mode, the indexes a question would read) for the
 * workspace's files with nothing trusted, and listing what it passed over.
 * So the explanation is what runs, never a second opinion. Runs nothing.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import type { CallerContext } from '../../answers/caller';
import { decide, locate } from '../../engine/sessions';
import { mayReadIndex } from '../../engine/index-files';
import { loadServers } from '../../lsp/servers/config';
import { formatterWorkspace, namedFormatter } from '../../lsp/servers/formatters';
import { findMarkedRoot, findRoot } from '../../lsp/servers/locate';
import { serversForFile } from '../../lsp/servers/registry';
import { neverSources } from '../../project/folders';
import { fetchedPath } from '../../scip/fetch-index';
import { type LeftOut, Trust } from '../../trust/decision';

export interface WouldRun {
  /** What runs: a server, a program, a configuration, an index. */
  what: string;
  /** The files of the workspace that make it run, from its top; a folder ends in `/`. */
  files: string[];
  /** The folder whose trust lets it run, where that is not the one explained (a program above it). */
  trust?: string;
}

const MAX_FOLDERS = 20_000;

/**
 * One file per folder and kind of file (extension, or whole name where a
 * server takes a name: go.mod), what each question about that folder's
 * files would decide from; and the folders walked, for their indexes.
 */
function representatives(top: string): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 16 || folders.length >= MAX_FOLDERS) return;
    folders.push(dir);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    const kinds = new Set<string>();
    for (const name of names) {
      const path = join(dir, name);
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!neverSources(path, name)) walk(path, depth + 1);
        continue;
      }
      const kind = extname(name) || name;
      if (!kinds.has(kind)) {
        kinds.add(kind);
        files.push(path);
      }
    }
  };
  walk(top, 0);
  return { files, folders };
}

/**
 * Each thing trusting `top` would let run, with the workspace's files
 * behind it, as the runtime decides it for the caller's environment.
 */
export function wouldRun(top: string, caller: Pick<CallerContext, 'env' | 'cwd'>): WouldRun[] {
  const trust = Trust.nothing();
  // The server lookups read only the caller's env and cwd (and no root: the runtime's own choice).
  const req = { ...caller, root: undefined } as CallerContext;
  const { files, folders } = representatives(top);
  const decided = new Set<string>();
  // A folder's servers read once: its files of each kind ask the same (read per file, 4,600 files took 0.8 s).
  const specsIn = new Map<string, ReturnType<typeof loadServers>>();
  for (const file of files) {
    const dir = dirname(file);
    let specs = specsIn.get(dir);
    if (specs === undefined) {
      specs = loadServers(dir, caller.env, trust);
      specsIn.set(dir, specs);
    }
    for (const spec of serversForFile(specs, file)) {
      if (spec.needsMarker && !findMarkedRoot(spec, dirname(file))) continue;
      const key = `${spec.id}\0${findRoot(spec, file)}\0${dirname(file)}`;
      if (decided.has(key)) continue;
      decided.add(key);
      const found = locate(spec, file, req, trust);
      if (found) decide(spec, found, req, trust);
    }
    // The formatter its project names for it, with fmt's own decision of whether it may run.
    const named = namedFormatter(file);
    const key = named && `${named.formatter.name}\0${named.config}`;
    if (named && key && !decided.has(key)) {
      decided.add(key);
      formatterWorkspace(named, trust);
    }
  }
  // The indexes a question in each folder would read (the same decision findIndex takes).
  for (const d of folders) {
    for (const file of [join(d, '.lspq', 'index.scip'), fetchedPath(d)])
      if (existsSync(file)) mayReadIndex(file, d, caller.env, trust);
  }
  return grouped(trust.leftOut, top);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What was left out, by what it is, each with its files (from the top where under it), in the order first met. */
function grouped(leftOut: LeftOut[], top: string): WouldRun[] {
  const byWhat = new Map<string, { files: Set<string>; trust: string }>();
  for (const l of leftOut) {
    const key = `${l.what}\0${l.repository}`;
    const entry = byWhat.get(key) ?? { files: new Set<string>(), trust: l.repository };
    if (l.file) {
      const rel = relative(top, l.file);
      const shown = rel === '' ? '.' : rel.startsWith('..') ? l.file : rel;
      // A folder (a server's root where no file of its names it) ends in a slash, so it reads as one: `./`, `web/`.
      entry.files.add(isFolder(l.file) ? `${shown}/` : shown);
    }
    byWhat.set(key, entry);
  }
  return [...byWhat].map(([key, { files, trust }]) => ({
    what: key.slice(0, key.indexOf('\0')),
    files: [...files],
    ...(trust !== top ? { trust } : {}),
  }));
}
