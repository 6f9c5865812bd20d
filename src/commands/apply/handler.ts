/**
 * apply: the patches checked in memory exactly as diag --patch checks them
 * (patches/check.ts), then, only if the check is whole and nothing at
 * --fail-on was introduced, written by the one writer every edit goes
 * through (engine/edit-plans.ts: journaled, all files or none, each file
 * still as the patch was read against, or the edit refused), the servers
 * held alone from the check to the write.
 */
import type { PatchStep } from '../../answers/diagnostics';
import { LspqError } from '../../common/errors';
import { displayPath } from '../../common/paths';
import { inGitFolder } from '../../common/workspace-guard';
import type { HandlerContext } from '../../engine/context';
import type { DiagRequest } from '../../engine/diagnose';
import { commit, journalFor } from '../../engine/edit-plans';
import { composePlans, type EditPlan, type FileChange } from '../../lsp/workspace-edit';
import { verdict } from '../../render/verdict';
import { repositoryOf } from '../../trust/store';
import { checkPatches } from '../patches/check';
import type { ApplyQuery, ApplyResult } from './question';
import { appliedSummary } from './render';

/** One patch as an edit plan: each file from the text it was read against to the patch's, renames followed. */
function planOf(step: PatchStep): EditPlan {
  const files = step.files.map(
    (f): FileChange =>
      f.renamedFrom !== undefined
        ? { path: f.renamedFrom, before: f.before, after: f.after, renamedTo: f.path, edits: 1 }
        : { path: f.path, before: f.before, after: f.after, edits: 1 },
  );
  return { files };
}

/** git runs what its folder holds: no patch writes there, whatever allows it otherwise. */
function refuseGitFolder(plan: EditPlan, root: string, cwd: string): void {
  for (const f of plan.files)
    for (const path of [f.path, f.renamedTo].filter((p): p is string => p !== undefined))
      if (inGitFolder(path, root))
        throw new LspqError(
          'outside_workspace',
          `the patch would change ${displayPath(path, cwd)}, inside a .git folder, which lspq apply never writes (git runs its hooks); nothing was written`,
        );
}

export async function apply(req: ApplyQuery, ctx: HandlerContext): Promise<ApplyResult> {
  const root = repositoryOf(req.cwd);
  const plan = composePlans(req.steps.map(planOf));
  refuseGitFolder(plan, root, req.cwd);
  const asDiag: DiagRequest = {
    ...req,
    op: 'diag',
    files: [],
    all: false,
    patch: req.steps,
    ...(req.failOn ? { failOn: req.failOn } : {}),
  };
  const { result: checked, sessions } = await checkPatches(asDiag, ctx);
  const changed = [...new Set(plan.files.flatMap((f) => [f.path, ...(f.renamedTo ? [f.renamedTo] : [])]))].sort();
  const names = req.steps.map((s) => s.name);
  const judged = verdict(checked, req.failOn, req.cwd);
  const clean = judged.exit === 0;
  if (!clean || !req.write || plan.files.length === 0) return { ...checked, written: false, changed, names };
  // The servers are held alone since the check (diagnose-tree.ts): no other question sees the files half-written.
  await commit(plan, sessions, {
    root,
    allowOutside: req.allowOutside,
    confine: req.confine,
    journal: journalFor(ctx, req, appliedSummary(names, plan.files.length)),
  });
  return { ...checked, written: true, changed, names };
}
