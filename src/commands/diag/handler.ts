/**
 * diag: the diagnostics of the files asked (named, staged, changed, or the
 * whole workspace), each file's complete ones or the file said incomplete;
 * with --since or --changed-lines, only what is new (since.ts); with
 * --patch, what a diff or a chain of them would introduce (patches/check.ts).
 */
import { answeredBy } from '../../answers/caller';
import type { Severity } from '../../answers/diagnostics';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { assertFile, unhandable } from '../../engine/files';
import { withheldOf } from '../../engine/diagnose-tree';
import { inTree, layOver, takeOff } from '../../engine/memory-tree';
import { holdAlone } from '../../engine/sessions';
import type { Session } from '../../lsp/manager';
import type { DiagResult } from './question';
import { diagPatch } from '../patches/check';
import { diagSince } from './since';
import {
  atLeast,
  BATCH,
  type DiagRequest,
  diagnoseBatch,
  fileSessions,
  mergeDiagnostics,
  shownFrom,
  stagedSnapshot,
  workspaceWork,
  collected,
  tsconfigNotes,
  uncheckedList,
} from '../../engine/diagnose';

export async function diag(req: DiagRequest, ctx: HandlerContext): Promise<DiagResult> {
  if (req.patch) return diagPatch(req, ctx);
  if (req.since !== undefined || req.changedLines) return diagSince(req, ctx);
  const deadline = deadlineFor(req);
  const out = collected(req.context);
  let work = new Map<Session, string[]>();
  let asked = new Set<Session>();
  const snapshot = req.staged ? await stagedSnapshot(req) : undefined;
  if (req.all) {
    ({ work, asked } = await workspaceWork(req, ctx, deadline, out));
    // With --staged, the workspace as the commit would hold it: no untracked file.
    const tree = snapshot?.tree;
    if (tree)
      for (const [session, files] of work)
        work.set(
          session,
          files.filter((f) => inTree(tree, f) && !snapshot.untracked.has(f)),
        );
  } else {
    for (const path of snapshot?.files ?? req.files) {
      // A staged file is read from the index: it may be gone from the work tree.
      if (!req.staged) {
        // Named on the command line, a file that cannot be handed is bad input; found by git, it is skipped.
        if (req.changed) {
          const why = unhandable(path);
          if (why) {
            out.skipped.set(path, why);
            continue;
          }
        } else assertFile(path);
      }
      // A named file no server is configured for is bad input; a staged or changed one (LICENSE) is no source.
      const named = req.staged !== true && req.changed !== true;
      for (const session of await fileSessions(path, req, ctx, out.unchecked, named)) {
        asked.add(session);
        work.set(session, [...(work.get(session) ?? []), path]);
      }
    }
  }
  if (snapshot) for (const [path, why] of snapshot.skipped) out.skipped.set(path, why);
  // The index's text is this question's alone: no other question is answered while the servers hold it.
  if (snapshot) await holdAlone([...work.keys()], req, ctx, deadline);
  // A check that reads the disk (cargo check) would judge the work tree, not the staged one: left out, and said.
  const held = snapshot !== undefined && snapshot.tree.size > 0;
  const total = [...work.values()].reduce((n, files) => n + files.length, 0);
  let done = 0;
  for (const [session, files] of work) {
    for (const f of files) out.files.add(f);
    try {
      // The staged tree is for this answer only: the disk's texts go back before the lease is given up.
      if (snapshot) await layOver(session, snapshot.tree, ctx, deadline);
      for (let i = 0; i < files.length; i += BATCH) {
        const batch = files.slice(i, i + BATCH);
        await diagnoseBatch(session, batch, !req.all, ctx, deadline, out, { ownOnly: held });
        done += batch.length;
        // Worth a word only when there are several batches to go through (diag --all).
        if (total > BATCH) ctx.progress?.(`diagnosing with ${session.client.spec.id}: ${done} of ${total} files`);
      }
    } finally {
      if (snapshot) await takeOff(session, snapshot.tree);
    }
  }
  // The summary counts everything found (--fail-on judges it); --severity only chooses what is shown.
  const found = mergeDiagnostics(out.diagnostics);
  const summary: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of found) summary[d.severity]++;
  const shown = found.filter((d) => atLeast(d.severity, shownFrom(req)));
  const sessions = [...asked];
  const tsconfig = tsconfigNotes(out);
  return {
    diagnostics: shown.slice(0, req.limit),
    summary,
    shown: shownFrom(req),
    files: [...out.files].sort(),
    total: shown.length,
    truncated: shown.length > req.limit,
    incomplete: [...out.incomplete].sort(),
    skipped: [...out.skipped].map(([path, reason]) => ({ path, reason })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    answered: answeredBy(sessions),
    withheld: withheldOf(sessions, ctx, held),
    unchecked: uncheckedList(out.unchecked),
    ...(tsconfig ? { tsconfig } : {}),
  };
}
