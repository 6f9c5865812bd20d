/**
 * A patch, or a chain of them, checked in memory (diag --patch, apply):
 * each patched tree held over the disk and compared with the tree before
 * it over the workspaces of the files it touches (engine/diagnose-tree.ts),
 * so a caller it breaks is found. A chain's patches are checked in turn,
 * each on top of the ones before it, until one introduces a problem at
 * --fail-on; with --all, every problem of one patch's files besides.
 */
import { type Answered, answeredBy } from '../../answers/caller';
import type { Diagnostic, PatchStep, Severity } from '../../answers/diagnostics';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { atLeast, type DiagRequest, mergeDiagnostics, shownFrom } from '../../engine/diagnose';
import { type Introduced, introducedBy } from '../../engine/diagnose-tree';
import type { Tree } from '../../engine/memory-tree';
import type { Session } from '../../lsp/manager';
import type { DiagResult, StepResult } from '../diag/question';

export const count = (list: Diagnostic[]) => {
  const summary: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of list) summary[d.severity]++;
  return summary;
};

/** The tree a chain's patches make, laid step by step: each file's text after it (null: gone). */
function laid(tree: Map<string, string | null>, step: PatchStep): void {
  for (const f of step.files) {
    if (f.renamedFrom !== undefined) tree.set(f.renamedFrom, null);
    tree.set(f.path, f.after);
  }
}

/** Whether a step introduced a problem at `failOn` or worse. */
const fails = (found: Introduced, failOn: Severity | undefined) =>
  failOn !== undefined && found.fresh.some((d) => atLeast(d.severity, failOn));

/** What each step introduced, in order; the steps after the first that fails are not checked. */
async function checkSteps(req: DiagRequest, ctx: HandlerContext): Promise<{ step: PatchStep; found?: Introduced }[]> {
  const deadline = deadlineFor(req);
  const steps = req.patch ?? [];
  const base = new Map<string, string | null>();
  const out: { step: PatchStep; found?: Introduced }[] = [];
  let failed = false;
  for (const step of steps) {
    if (failed) {
      out.push({ step });
      continue;
    }
    const under: Tree = new Map(base);
    const found = await introducedBy(step.files, 'before', 'workspace', req, ctx, deadline, { base: under });
    out.push({ step, found });
    laid(base, step);
    failed = steps.length > 1 && fails(found, req.failOn);
  }
  return out;
}

const byPath = <T extends { path: string }>(list: T[]) => list.sort((a, b) => (a.path < b.path ? -1 : 1));

export async function diagPatch(req: DiagRequest, ctx: HandlerContext): Promise<DiagResult> {
  return (await checkPatches(req, ctx)).result;
}

/** The answer diag --patch gives, and the servers asked (held alone to the question's end). */
export async function checkPatches(
  req: DiagRequest,
  ctx: HandlerContext,
): Promise<{ result: DiagResult; sessions: Session[] }> {
  const checked = await checkSteps(req, ctx);
  const found = checked.flatMap((c) => (c.found ? [c.found] : []));
  const first = found[0];
  const patched = new Set(checked.flatMap((c) => c.step.files.filter((f) => f.after !== null).map((f) => f.path)));
  // --all (one patch): the patched files' problems that were there already are listed too, marked not new.
  const listed = new Set(req.all && first ? first.old.filter((d) => patched.has(d.path)) : []);
  const kept: Diagnostic[] = [...listed].map((d) => ({ ...d, new: false }));
  const visibleOf = (list: Diagnostic[]) => list.filter((d) => atLeast(d.severity, shownFrom(req)));
  // Each step's in its own tree's places: merged within a step, never across.
  const perStep = checked.map((c) => (c.found ? mergeDiagnostics(c.found.fresh) : []));
  const shown = checked.length === 1 ? mergeDiagnostics([...(first?.fresh ?? []), ...kept]) : perStep.flat();
  const visible = visibleOf(shown);
  const skipped = new Map(found.flatMap((f) => [...f.skipped]));
  for (const c of checked)
    for (const path of c.step.binary) skipped.set(path, 'a binary change, which no server checks');
  const sessions = [...new Set(found.flatMap((f) => f.sessions))];
  const steps: StepResult[] = checked.map((c, i) => ({
    patch: c.step.name,
    checked: c.found !== undefined,
    introduced: count(perStep[i] ?? []),
    diagnostics: visibleOf(perStep[i] ?? []).slice(0, req.limit),
  }));
  const answered: Answered[] = answeredBy(sessions);
  const result: DiagResult = {
    diagnostics: visible.slice(0, req.limit),
    summary: count(shown),
    shown: shownFrom(req),
    files: [...new Set(found.flatMap((f) => f.files))].sort(),
    total: visible.length,
    truncated: visible.length > req.limit,
    incomplete: [...new Set(found.flatMap((f) => [...f.incomplete]))].sort(),
    skipped: byPath([...skipped].map(([path, reason]) => ({ path, reason }))),
    answered,
    withheld: found.flatMap((f) => f.withheld).filter((w, i, all) => all.findIndex((o) => o.server === w.server) === i),
    unchecked: byPath(
      found.flatMap((f) => f.unchecked).filter((u, i, all) => all.findIndex((o) => o.path === u.path) === i),
    ),
    patch: {
      files: [...new Set(checked.flatMap((c) => c.step.files.map((f) => f.path)))].sort(),
      introduced: count(found.flatMap((f) => f.fresh)),
      present: count((first?.old ?? []).filter((d) => !listed.has(d))),
    },
    ...(checked.length > 1 ? { steps } : {}),
  };
  return { result, sessions };
}
