/**
 * Vue's hybrid mode, the client's part: vue-language-server asks its
 * TypeScript questions (`_vue:projectInfo`, quick info, ...) as
 * `tsserver/request` notifications and waits for each answer. They go to
 * the TypeScript server of the same project that has @vue/typescript-plugin
 * loaded, as typescript-language-server's `typescript.tsserverRequest`;
 * its answer's body goes back (null where no such server runs: the
 * question then has no TypeScript behind it, and vue-language-server says
 * less, rather than hang).
 */
import type { Session, ServerPool } from '../lsp/manager';
import { Requests } from '../lsp/requests';

/** How long one relayed request may take: the question that caused it has its own deadline besides. */
const RELAY_TIMEOUT_MS = 30_000;

const isUnder = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/** A running TypeScript server with `plugin` loaded whose root holds `root` or lies in it. */
function typescriptFor(pool: ServerPool, root: string, plugin: string): Session | undefined {
  return pool.list().find((s) => {
    const options = s.client.spec.initializationOptions as { plugins?: { name: string }[] } | undefined;
    const loaded = options?.plugins?.some((p) => p.name === plugin) === true;
    return loaded && s.client.running && (isUnder(root, s.client.root) || isUnder(s.client.root, root));
  });
}

export function tsserverRelay(pool: ServerPool, root: string, plugin: string) {
  return async (command: string, args: unknown): Promise<unknown> => {
    const typescript = typescriptFor(pool, root, plugin);
    if (!typescript) return null;
    const answer = await typescript.client.request(
      Requests.executeCommand,
      { command: 'typescript.tsserverRequest', arguments: [command, args, { isAsync: true, lowPriority: true }] },
      { timeoutMs: RELAY_TIMEOUT_MS },
    );
    return typeof answer === 'object' && answer !== null && 'body' in answer ? answer.body : null;
  };
}
