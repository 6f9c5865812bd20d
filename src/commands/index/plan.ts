/**
 * Which indexers lspq index runs, and where: each indexer that takes the
 * root itself, and for a root several languages share (a monorepo), each
 * that takes a project below it, at the topmost such projects (and for
 * Go, every module: one nested in another is not among its packages). Pure
 * but for reading folders.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Indexer, INDEXERS } from '../../lsp/servers/indexers';
import { skippedFolder } from '../../scip/manifest';

/** How deep below the root projects are looked for (services/api/go.mod is two). */
const PROJECT_DEPTH = 3;

export interface IndexRun {
  indexer: Indexer;
  /** The project's folder: the root, or a project below it. */
  dir: string;
}

function foldersBelow(dir: string): string[] {
  try {
    return (
      readdirSync(dir, { withFileTypes: true })
        // The go command also ignores folders named _*; no other language keeps a project in one.
        .filter((e) => e.isDirectory() && !skippedFolder(e.name, join(dir, e.name)) && !e.name.startsWith('_'))
        .map((e) => join(dir, e.name))
        .sort()
    );
  } catch {
    return [];
  }
}

/** The topmost folders below `root` (to PROJECT_DEPTH) that `indexer` marks as projects (every one, if nested). */
function projectsBelow(indexer: Indexer, root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const sub of foldersBelow(dir)) {
      const marked = indexer.marks(sub);
      if (marked) found.push(sub);
      if ((!marked || indexer.nested) && depth + 1 < PROJECT_DEPTH) walk(sub, depth + 1);
    }
  };
  walk(root, 0);
  return found;
}

export function indexPlan(root: string): IndexRun[] {
  const runs: IndexRun[] = [];
  for (const indexer of INDEXERS) {
    const atRoot = indexer.wants(root);
    if (atRoot) runs.push({ indexer, dir: root });
    if (!atRoot || indexer.nested) for (const dir of projectsBelow(indexer, root)) runs.push({ indexer, dir });
  }
  return runs;
}
