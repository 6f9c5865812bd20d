import { defineCommand } from 'citty';
import { usage } from '../errors';
import { resolvePath } from '../protocol/paths';
import type { SymbolsResult, WorkspaceSymbolsResult } from '../protocol/messages';
import { renderSymbols, renderWorkspaceSymbols, symbolsJson, workspaceSymbolsJson } from '../render/symbols';
import { serverArgs } from './_shared';
import { callerOf, runQuery } from './_run';
import { parseKinds } from './_kinds';

export default defineCommand({
  meta: { name: 'symbols', description: "A file's symbols as a tree, or with -w the workspace's symbols matching QUERY" },
  args: {
    ...serverArgs,
    input: { type: 'positional', required: false, description: 'FILE, or QUERY with -w', valueHint: 'FILE|QUERY' },
    workspace: { type: 'boolean', alias: 'w', description: 'Search the whole workspace for QUERY' },
    kind: { type: 'string', description: 'Only these kinds, comma-separated (class,function,...)', valueHint: 'K,...' },
  },
  run: ({ args, data }) => {
    const caller = callerOf(data);
    const kinds = parseKinds(args.kind);
    const input = typeof args.input === 'string' ? args.input : undefined;
    if (args.workspace) {
      if (!input) throw usage('symbols -w needs a QUERY: lspq symbols -w NAME');
      return runQuery<WorkspaceSymbolsResult>({ op: 'wsymbols', query: input ?? '', ...(kinds ? { kinds } : {}) }, args, {
        human: renderWorkspaceSymbols,
        json: workspaceSymbolsJson,
        found: (r) => r.total > 0,
      }, caller);
    }
    if (!input) throw usage('missing FILE: lspq symbols FILE, or lspq symbols -w QUERY for the workspace');
    const path = resolvePath(caller.cwd, input);
    return runQuery<SymbolsResult>({ op: 'symbols', path, ...(kinds ? { kinds } : {}) }, args, {
      human: renderSymbols,
      json: symbolsJson,
      found: (r) => r.total > 0,
    }, caller);
  },
});
