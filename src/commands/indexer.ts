/** lspq index: the project's SCIP indexers run by the engine; the answer is where the index went. */
import { resolvePath } from '../protocol/paths';
import { indexJson, renderIndex } from '../render/index-build';
import { present, type Run } from './context';

import { COMMANDS } from './table';

export const index: Run<'index'> = async (args, { line, ask }) => {
  const query = {
    op: 'index' as const,
    ...(args.root ? { root: resolvePath(line.cwd, args.root) } : {}),
    ...(args.out ? { out: resolvePath(line.cwd, args.out) } : {}),
  };
  // An indexer takes minutes on a large project: half an hour unless told.
  const patient = { ...args, timeout: args.timeout ?? String(COMMANDS.index.timeoutSeconds) };
  return present(
    await ask(query, patient),
    args.json,
    { human: renderIndex, json: indexJson, found: () => true },
    line,
  );
};
