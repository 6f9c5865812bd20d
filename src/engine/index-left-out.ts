/**
 * What an index's build left out, made with its table: scip-go indexes one
 * build configuration, so the files of the others (`b_windows.go`, a
 * `//go:build integration` file) are in no answer it gives. Found once,
 * when the table is made, their words kept beside it, a question the index
 * answers alone names those that write its name from the table.
 */
import { leftOutByBuild } from './go-builds';
import { projectFiles } from '../lsp/project-files';
import { BUILTIN_SERVERS } from '../lsp/servers/registry';
import type { LeftOutFile } from '../scip/index-table';
import type { ScipIndex } from '../scip/scip-index';

/** Files walked at most where git cannot list them (as a question's own search walks). */
const MAX_WALK = 20_000;

/** The files `index`'s build left out, or undefined where it knows no other build (an index not of Go). */
export async function leftOutOfIndex(index: ScipIndex): Promise<LeftOutFile[] | undefined> {
  const { documents, root, tools } = index.contents();
  const gopls = BUILTIN_SERVERS.find((s) => s.buildConfigurations === 'go');
  if (!gopls || !tools.includes('scip-go')) return undefined;
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return leftOutByBuild(root, new Set(documents.keys()), env, () => projectFiles(gopls, root, MAX_WALK));
}
