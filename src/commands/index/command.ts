/** index: build a SCIP index of the project with its indexers, for answers without a server. */
import { resolvePath } from '../../common/paths';
import { serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { indexJson, renderIndex } from './render';
import { IndexShape } from './shape';

/** An indexer takes minutes on a large project: half an hour unless told. */
const INDEX_TIMEOUT_SECONDS = 1800;

export const index = defineCommand({
  summary:
    "build a SCIP index of the project (scip-typescript, scip-python, rust-analyzer's scip, scip-go), or fetch CI's, for answers without a server",
  args: {
    ...serverArgs,
    root: { type: 'string', description: "The project to index (default: the checkout's top)", valueHint: 'DIR' },
    out: { type: 'string', description: 'Where to write it (default: ROOT/.lspq/index.scip)', valueHint: 'FILE' },
    fetch: {
      type: 'string',
      description:
        'Take the index CI built for HEAD (else its merge base with the default branch) from URL, {commit} in it',
      valueHint: 'URL',
    },
    timeout: {
      type: 'string',
      description: `Give up after this many seconds (default ${INDEX_TIMEOUT_SECONDS}; exit 3)`,
      valueHint: 'SECONDS',
    },
  },
  examples: ['lspq index', 'lspq index --root . --json'],
  process: 'daemon',
  timeoutSeconds: INDEX_TIMEOUT_SECONDS,
  handlers: { index: async () => (await import('./handler')).buildIndex },
  run: async (args, { line, ask }) => {
    const query = {
      op: 'index' as const,
      ...(args.root ? { root: resolvePath(line.cwd, args.root) } : {}),
      ...(args.out ? { out: resolvePath(line.cwd, args.out) } : {}),
      ...(args.fetch ? { fetch: args.fetch } : {}),
    };
    const patient = { ...args, timeout: args.timeout ?? String(INDEX_TIMEOUT_SECONDS) };
    return present(
      await ask(query, patient),
      args.json,
      { human: renderIndex, json: indexJson, found: () => true },
      line,
    );
  },
  shape: IndexShape,
});
