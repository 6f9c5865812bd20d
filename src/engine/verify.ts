/**
 * --verify on an edit (rename, actions --apply, mv): once it is written,
 * the diagnostics of the files it touched (with --all, the workspace) are
 * compared with those of the same files as they were, handed back to the
 * same servers as unsaved documents, as `diag --since` compares with a
 * revision. An error the edit introduced puts every file back as it was.
 * With --dry-run nothing is written: the edit's texts are laid over the
 * disk's in memory instead, as diag --patch lays a patch's (verifyPlanned).
 */
import { readdirSync, statSync } from 'node:fs';
import { readWorkspaceText } from '../common/file-size';
import { join } from 'node:path';
import type { ChangedFile } from '../answers/diagnostics';
import type { EditPlan } from '../lsp/workspace-edit';
import { reversePlan } from '../lsp/workspace-edit';
import { lineMap } from '../lsp/line-map';
import type { Session } from '../lsp/manager';
import type { CallerContext } from '../answers/caller';
import type { Verification } from '../answers/edits';
import { writePlan } from './apply-edit';
import type { Deadline, HandlerContext } from './context';
import { holdAlone } from './sessions';
import { journalFor } from './edit-plans';
import { collected, mergeDiagnostics, type DiagRequest } from './diagnose';
import { pass, splitNew, workFor, type Changed } from './diagnose-since';
import { strategyFor } from '../lsp/complete-diagnostics';
import { introducedBy } from './diagnose-tree';
import { unhandable } from './files';

/** Each file the plan leaves behind, with its text now and before it (undefined: created). */
function touched(plan: EditPlan): Changed[] {
  return plan.files.flatMap((f) => {
    if (f.after === null) return [];
    const then = f.before ?? undefined;
    return [
      {
        path: f.renamedTo ?? f.path,
        now: f.after,
        ...(then !== undefined ? { then } : {}),
        lines: lineMap(then ?? '', f.after),
      },
    ];
  });
}

export async function verifyWritten(
  plan: EditPlan,
  held: Session[],
  where: { root: string; allowOutside: boolean; confine?: string },
  req: CallerContext & { verifyAll?: boolean },
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Verification> {
  const changed = touched(plan);
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
  const listed = collected(undefined);
  const work = await workFor(asDiag, files, ctx, deadline, listed);
  // Already held alone for the edit: this adds the other servers of the touched files, if any.
  await holdAlone([...held, ...work.keys()], req, ctx, deadline);
  const afterPass = await pass(work, new Map(), asDiag, ctx, deadline);
  const then = new Map(changed.map((c) => [c.path, c.then ?? '']));
  const beforePass = await pass(work, then, asDiag, ctx, deadline);
  const after = mergeDiagnostics(afterPass.diagnostics);
  const before = mergeDiagnostics(beforePass.diagnostics);
  const byPath = new Map(changed.map((c) => [c.path, c]));
  const introduced = splitNew(before, after, byPath).fresh.filter((d) => d.severity === 'error');
  // Diagnostics that did not come in time verify nothing: no error found is not "no error" then. Nor do those
  // of a check that reads the disk (rust-analyzer's cargo check): it saw the edit in both passes, so its errors
  // after the edit cannot be told new from old.
  const readsDisk = new Set(
    [...work].filter(([session]) => strategyFor(session) === 'pull-and-check').flatMap(([, paths]) => paths),
  );
  const unjudged = after.filter((d) => d.severity === 'error' && readsDisk.has(d.path)).map((d) => d.path);
  // A touched program file no installed server could check verifies nothing either.
  const unchecked = [...listed.unchecked.values()].filter((u) => u.needed).map((u) => u.path);
  const incomplete = [
    ...new Set([...afterPass.incomplete, ...beforePass.incomplete, ...unjudged, ...unchecked]),
  ].sort();
  if (introduced.length === 0) return { introduced, reverted: false, ...(incomplete.length ? { incomplete } : {}) };
  // Put back as one plan, journaled as every edit is.
  const journal = journalFor(
    ctx,
    { ...req, editId: undefined },
    `took back an edit that introduced ${introduced.length} error(s)`,
  );
  await writePlan(reversePlan(plan), { ...where, journal });
  for (const session of new Set([...held, ...work.keys()])) await session.docs.refreshAll();
  return { introduced, reverted: true };
}

/** Every file under `dir` (a folder a move takes), as it is. */
function filesUnder(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [dir];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/**
 * The files a plan changes as a change held in memory: each with its text
 * before and after; a file moved (mv, a server's rename of a file) said
 * where it goes, renamed from where it was.
 */
export function planChanges(plan: EditPlan): ChangedFile[] {
  const out = new Map<string, ChangedFile>();
  for (const { from, to } of plan.moves ?? [])
    for (const old of filesUnder(from)) {
      // What no server reads (a binary, a file past the size lspq hands one) is moved, never laid over.
      if (unhandable(old)) continue;
      const path = to + old.slice(from.length);
      const text = readWorkspaceText(old, 'source');
      if (text === undefined) continue;
      out.set(path, { path, before: text, after: text, renamedFrom: old });
    }
  for (const f of plan.files) {
    const moved = out.get(f.path);
    if (moved) out.set(f.path, { ...moved, after: f.after });
    else if (f.renamedTo && f.after !== null)
      out.set(f.renamedTo, { path: f.renamedTo, before: f.before, after: f.after, renamedFrom: f.path });
    else out.set(f.path, { path: f.path, before: f.before, after: f.after });
  }
  return [...out.values()];
}

/**
 * --dry-run --verify: the errors the edit would introduce, its texts laid
 * over the disk's in memory for the servers of the files it touches (with
 * --verify-all, over their workspaces); nothing is written.
 */
export async function verifyPlanned(
  plan: EditPlan,
  req: CallerContext & { verifyAll?: boolean },
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Verification> {
  const asDiag: DiagRequest = {
    op: 'diag',
    files: [],
    all: false,
    cwd: req.cwd,
    env: req.env,
    limit: Number.MAX_SAFE_INTEGER,
    ...(req.root ? { root: req.root } : {}),
    ...(req.timeoutMs ? { timeoutMs: req.timeoutMs } : {}),
  };
  // Every server of the files checks, whichever --server made the edit (as when it is written).
  const found = await introducedBy(
    planChanges(plan),
    'before',
    req.verifyAll ? 'workspace' : 'files',
    asDiag,
    ctx,
    deadline,
    { least: 'error' },
  );
  const introduced = found.fresh.filter((d) => d.severity === 'error');
  // A check that reads the disk (cargo check) cannot judge text held in memory: its files are not verified.
  const incomplete = [...new Set([...found.incomplete, ...found.unjudged])].sort();
  return { introduced, reverted: false, written: false, ...(incomplete.length ? { incomplete } : {}) };
}
