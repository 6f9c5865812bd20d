/**
 * A question to its handler: the operations each command declares in its
 * `answers` (commands/list.ts), each handler loaded when its question is
 * first asked.
 */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { Handler } from '../commands/command';
import { COMMANDS } from '../commands/list';
import type { Request } from '../commands/road';
import { Leases } from '../lsp/leases';
import type { Session } from '../lsp/manager';
import { leftOutLine, Trust } from '../lsp/servers/trust';
import type { EngineContext } from './context';

const HANDLERS = new Map<string, () => Promise<Handler>>(
  Object.values(COMMANDS).flatMap((c) => Object.entries<() => Promise<Handler>>(c.answers ?? {})),
);

/** Each command's (and fmt-range's, symbols-w's) need of a server, in the list's order. */
const CAPABILITIES: [string, (c: ServerCapabilities) => boolean][] = Object.values(COMMANDS).flatMap((c) =>
  Object.entries<(c: ServerCapabilities) => boolean>(c.capabilities ?? {}),
);

/**
 * Answers one question; the leases it took on servers are given back
 * however it ends, and what it left out as untrusted is said.
 */
export async function answer(request: Request, ctx: EngineContext): Promise<unknown> {
  const load = HANDLERS.get(request.op);
  if (!load) throw new Error(`no handler answers '${request.op}'`);
  const handler = await load();
  const leases = new Leases<Session>();
  const trust = new Trust(request.env);
  try {
    // The command that asked declared this handler for this operation: the request is its query.
    return await handler(request as never, { ...ctx, leases, trust, capabilities: CAPABILITIES });
  } finally {
    leases.releaseAll();
    const line = leftOutLine(trust.leftOut);
    if (line) ctx.warn?.(line);
  }
}
