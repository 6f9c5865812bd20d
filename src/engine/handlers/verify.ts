/**
 * --verify on an edit (rename, actions --apply, mv): once it is written,
 * the diagnostics of the files it touched (with --all, the workspace) are
 * compared with those of the same files as they were, handed back to the
 * same servers as unsaved documents, as `diag --since` compares with a
 * revision. An error the edit introduced puts every file back as it was.
 */
import type { EditPlan } from '../../lsp/edits';
import { reversePlan } from '../../lsp/edits';
import { lineMap } from '../../lsp/line-map';
import type { Session } from '../../lsp/manager';
import type { CallerContext, Verification } from '../../queries';
import { writePlan } from '../apply-edit';
import { holdAlone, type Deadline, type HandlerContext } from './context';
import { mergeDiagnostics, type DiagRequest } from './diag';
import { pass, splitNew, workFor, type Changed } from './diag-since';

/** Each file the plans leave behind, with its text now and before them (undefined: created). */
function touched(plans: EditPlan[]): Changed[] {
  const byPath = new Map<string, Changed>();
  for (const plan of plans) {
    for (const f of plan.files) {
      if (f.after === null) continue;
      const path = f.renamedTo ?? f.path;
      const earlier = byPath.get(path)?.then;
      const then = earlier ?? f.before ?? undefined;
      byPath.set(path, {
        path,
        now: f.after,
        ...(then !== undefined ? { then } : {}),
        lines: lineMap(then ?? '', f.after),
      });
    }
  }
  return [...byPath.values()];
}

export async function verifyWritten(
  plans: EditPlan[],
  held: Session[],
  where: { root: string; allowOutside: boolean },
  req: CallerContext & { verifyAll?: boolean },
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Verification> {
  const changed = touched(plans);
  const files = changed.map((c) => c.path);
  const asDiag: DiagRequest = {
    op: 'diag',
    files,
    all: req.verifyAll === true,
    cwd: req.cwd,
    env: req.env,
    limit: Number.MAX_SAFE_INTEGER,
    ...(req.root ? { root: req.root } : {}),
    ...(req.timeoutMs ? { timeoutMs: req.timeoutMs } : {}),
  };
  const work = await workFor(asDiag, files, ctx);
  // Already held alone for the edit: this adds the other servers of the touched files, if any.
  await holdAlone([...held, ...work.keys()], req, ctx, deadline);
  const after = mergeDiagnostics((await pass(work, new Map(), asDiag, ctx, deadline)).diagnostics);
  const then = new Map(changed.map((c) => [c.path, c.then ?? '']));
  const before = mergeDiagnostics((await pass(work, then, asDiag, ctx, deadline)).diagnostics);
  const byPath = new Map(changed.map((c) => [c.path, c]));
  const introduced = splitNew(before, after, byPath).fresh.filter((d) => d.severity === 'error');
  if (introduced.length === 0) return { introduced, reverted: false };
  for (const plan of [...plans].reverse()) await writePlan(reversePlan(plan), where);
  for (const session of new Set([...held, ...work.keys()])) await session.docs.refreshAll();
  return { introduced, reverted: true };
}
