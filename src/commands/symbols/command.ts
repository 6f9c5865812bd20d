/** symbols: a file's symbols as a tree; -w QUERY searches the workspace. */
import { SYMBOL_KINDS } from '../../common/symbol-kinds';
import * as z from 'zod/mini';
import { displayPath, resolvePath } from '../../common/paths';
import { usage } from '../../common/errors';
import { contextArgs, indexArgs, serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { parseKinds } from '../options';
import { dependenciesLine, renderSymbols, renderWorkspaceSymbols, symbolsJson, workspaceSymbolsJson } from './render';
import { staleNote } from '../../render/place-json';
import { SymbolsShape, WorkspaceSymbolsShape } from './shape';

/** What a miss names: `symbols`, or `function or class symbols` with --kind. */
function kindWords(kinds: string[] | undefined): string {
  const last = kinds?.at(-1);
  if (kinds === undefined || last === undefined) return 'symbols';
  return `${kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} or ${last}` : last} symbols`;
}

export const symbols = defineCommand({
  summary: "a file's symbols as a tree; -w QUERY searches the workspace",
  args: {
    ...serverArgs,
    input: { type: 'positional', required: false, description: 'FILE, or QUERY with -w', valueHint: 'FILE|QUERY' },
    workspace: { type: 'boolean', alias: 'w', description: 'Search the whole workspace for QUERY' },
    deps: {
      type: 'boolean',
      description: "With -w: dependencies' matches too",
    },
    ...indexArgs,
    ...contextArgs,
    kind: {
      type: 'string',
      description: 'Only these kinds, comma-separated (class,function,...)',
      valueHint: 'K,...',
    },
  },
  values: { kind: SYMBOL_KINDS },
  examples: ['lspq symbols shape.h', 'lspq symbols -w total', 'lspq symbols src/geometry.ts --kind function'],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: {
    symbols: async () => (await import('./handler')).documentSymbols,
    wsymbols: async () => (await import('./handler')).workspaceSymbols,
  },
  run: async (args, { line, ask }) => {
    const kinds = parseKinds(args.kind);
    const input = args.input;
    if (args.workspace) {
      if (!input) throw usage('symbols -w needs a QUERY: lspq symbols -w NAME');
      const query = { op: 'wsymbols' as const, query: input, ...(kinds ? { kinds } : {}), deps: args.deps === true };
      const result = await ask(query, args);
      return present(
        result,
        args.json,
        {
          human: renderWorkspaceSymbols,
          json: workspaceSymbolsJson,
          found: (r) => r.total > 0,
          nothing: (r) =>
            `no ${kindWords(kinds)} in the workspace match '${input}'${r.inDependencies ? `; ${dependenciesLine(r)}` : ''}`,
          incomplete: staleNote,
        },
        line,
      );
    }
    if (!input) throw usage('missing FILE: lspq symbols FILE, or lspq symbols -w QUERY for the workspace');
    if (args.deps) throw usage('--deps widens a search of the workspace: lspq symbols -w QUERY --deps');
    const query = { op: 'symbols' as const, path: resolvePath(line.cwd, input), ...(kinds ? { kinds } : {}) };
    const result = await ask(query, args);
    return present(
      result,
      args.json,
      {
        human: renderSymbols,
        json: symbolsJson,
        found: (r) => r.total > 0,
        nothing: (r, cwd) => `no ${kindWords(kinds)} in ${displayPath(r.path, cwd)}`,
      },
      line,
    );
  },
  shape: z.union([SymbolsShape, WorkspaceSymbolsShape]),
  capabilities: {
    symbols: (c) => !!c.documentSymbolProvider,
    'symbols-w': (c) => !!c.workspaceSymbolProvider,
  },
});
