/**
 * A question to its handler, from the table the caller gives (the commands
 * declare their handlers; commands/handlers.ts makes the table), each
 * handler loaded when its question is first asked.
 */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { Request } from '../answers/caller';
import { Leases } from '../lsp/leases';
import type { Session } from '../lsp/manager';
import { leftOutLine, Trust } from '../trust/decision';
import { Skipped, skippedError, skippedFiles, skippedLine } from '../common/file-size';
import type { EngineContext, Handler } from './context';

/** What answers questions: each operation's handler, and what each command needs of a server. */
export interface Answerers {
  handlers: ReadonlyMap<string, () => Promise<Handler>>;
  /** Each command's (and fmt-range's, symbols-w's) need of a server, for `servers --for`. */
  capabilities: readonly [string, (c: ServerCapabilities) => boolean][];
}

/**
 * Answers one question; the leases it took on servers are given back
 * however it ends, and what it left out as untrusted is said. A file of
 * the workspace it skipped (a FIFO, a device, one past its cap) makes the
 * answer not whole: exit 3 naming it, or, where the question failed on its
 * own, a note beside that error.
 */
export async function dispatch(request: Request, ctx: EngineContext, answerers: Answerers): Promise<unknown> {
  const load = answerers.handlers.get(request.op);
  if (!load) throw new Error(`no handler answers '${request.op}'`);
  const handler = await load();
  const leases = new Leases<Session>();
  const trust = new Trust(request.env);
  const skips = new Skipped(request.cwd);
  let answered = false;
  try {
    // The command that asked declared this handler for this operation: the request is its query.
    const answer = await skippedFiles.run(skips, () =>
      handler(request as never, {
        ...ctx,
        leases,
        trust,
        capabilities: answerers.capabilities,
        withheld: new Map(),
      }),
    );
    answered = true;
    if (skips.size > 0) throw skippedError(skips, 'the answer could depend on it');
    return answer;
  } finally {
    leases.releaseAll();
    const finding = trust.leftOut.length ? trust.finding : undefined;
    const line = leftOutLine(trust.leftOut, finding && 'none' in finding ? finding.none : undefined);
    if (line) ctx.warn?.(line);
    const skipped = answered ? undefined : skippedLine(skips);
    if (skipped) ctx.warn?.(skipped);
  }
}
