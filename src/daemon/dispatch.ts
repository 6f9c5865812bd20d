/** A query request to its handler: the request-in, answer-out core, shared by the daemon and --no-daemon. */
import { runCommandLine } from '../cli/navigation';
import { LspqError, type CommandOutput } from '../errors';
import type { CommandLineRequest, QueryRequest } from '../protocol/messages';
import { calls } from './handlers/calls';
import type { HandlerContext } from './handlers/context';
import { diag } from './handlers/diag';
import { hover } from './handlers/hover';
import { locations } from './handlers/locations';
import { servers } from './handlers/servers';
import { documentSymbols, workspaceSymbols } from './handlers/symbols';

export async function dispatch(req: QueryRequest, ctx: HandlerContext): Promise<unknown> {
  switch (req.op) {
    case 'def':
    case 'typedef':
    case 'impls':
    case 'refs':
      return locations(req, ctx);
    case 'hover':
      return hover(req, ctx);
    case 'symbols':
      return documentSymbols(req, ctx);
    case 'wsymbols':
      return workspaceSymbols(req, ctx);
    case 'calls':
      return calls(req, ctx);
    case 'diag':
      return diag(req, ctx);
    case 'servers':
      return servers(req, ctx);
  }
}

/** A command line a command forwarded: run as that command would have, its questions answered here. */
export function runForwarded(req: CommandLineRequest, ctx: HandlerContext): Promise<CommandOutput> {
  return runCommandLine(req.command, req.args, {
    cwd: req.cwd,
    env: req.env,
    color: req.color,
    answer: (query) => dispatch(query, ctx),
    report: (err) => {
      if (!(err instanceof LspqError)) ctx.log(`internal error for ${req.command}: ${(err as Error).stack ?? String(err)}`);
    },
  });
}
