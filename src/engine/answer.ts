/** A question to its handler: one table, each operation's answer typed by its name. */
import type { Answers, Op, QueryFor } from '../queries';
import { actions } from './handlers/actions';
import { callPath } from './handlers/call-paths';
import { calls } from './handlers/calls';
import { Leases } from '../lsp/leases';
import { leftOutLine, Trust } from '../lsp/servers/trust';
import type { Session } from '../lsp/manager';
import type { EngineContext, HandlerContext } from './handlers/context';
import { diag } from './handlers/diag';
import { fmt } from './handlers/fmt';
import { hover } from './handlers/hover';
import { locations } from './handlers/locations';
import { buildIndex } from './handlers/build-index';
import { mv } from './handlers/mv';
import { rename } from './handlers/rename';
import { servers, serversFor } from './handlers/servers';
import { documentSymbols, workspaceSymbols } from './handlers/symbols';

type Handlers = { [O in Op]: (request: QueryFor<O>, ctx: HandlerContext) => Promise<Answers[O]> };

const HANDLERS: Handlers = {
  def: locations,
  typedef: locations,
  impls: locations,
  refs: locations,
  hover,
  symbols: documentSymbols,
  wsymbols: workspaceSymbols,
  calls,
  callPath,
  diag,
  servers,
  serversFor,
  fmt,
  rename,
  mv,
  index: buildIndex,
  actions,
};

/**
 * Answers one question; the leases it took on servers are given back
 * however it ends, and what it left out as untrusted is said.
 */
export async function answer<O extends Op>(request: QueryFor<O>, ctx: EngineContext): Promise<Answers[O]> {
  const handler: Handlers[O] = HANDLERS[request.op];
  const leases = new Leases<Session>();
  const trust = new Trust(request.env);
  try {
    return await handler(request, { ...ctx, leases, trust });
  } finally {
    leases.releaseAll();
    const line = leftOutLine(trust.leftOut);
    if (line) ctx.warn?.(line);
  }
}
