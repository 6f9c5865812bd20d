/**
 * hook run at a session's start (Claude Code's SessionStart, Cursor's
 * sessionStart, opencode's plugin as it loads): the project's servers
 * started and loaded in the daemon's background, the answer given at once,
 * so the agent's first edit is checked by servers already warm.
 */
import type { CallerContext } from '../../answers/caller';
import { messageOf } from '../../common/errors';
import { Deadline, type HandlerContext } from '../../engine/context';
import { loadProjects } from '../../engine/projects';
import { prepare } from '../../engine/sessions';
import { workspaceSessions } from '../../engine/symbol-search';
import { Leases } from '../../lsp/leases';
import type { Session } from '../../lsp/manager';

/** How long the servers may take to start and load, in the background. */
const PREPARE_MS = 300_000;

/**
 * Starts the servers of the project around `folder` and waits, in the
 * background, for each to load it; returns at once. The leases are its
 * own, given back when they are ready: a question asked meanwhile shares
 * them, and one that holds them alone waits, as it would for the load.
 */
export function prepareInBackground(folder: string, req: CallerContext, ctx: HandlerContext): void {
  const leases = new Leases<Session>();
  // Its own: the question's cancellation, progress and notes end with its answer, which comes first.
  const { signal: _signal, progress: _progress, warn: _warn, serverTime: _time, ...rest } = ctx;
  const own: HandlerContext = { ...rest, leases };
  const deadline = new Deadline(PREPARE_MS);
  const asked = { ...req, cwd: folder, timeoutMs: PREPARE_MS };
  void (async () => {
    try {
      for (const session of await workspaceSessions(asked, own)) {
        await loadProjects(session, own, deadline);
        await prepare(session, own, deadline);
        ctx.log(`prepared ${session.client.spec.id} for ${session.client.root} at a session's start`);
      }
    } catch (err) {
      ctx.log(`preparing the servers for ${folder} at a session's start: ${messageOf(err)}`);
    } finally {
      leases.releaseAll();
    }
  })();
}
