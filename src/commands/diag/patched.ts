/**
 * diag --patch: what a unified diff would introduce, the patched tree held
 * in memory and compared with the disk over the workspaces of the files it
 * touches (engine/diagnose-tree.ts), so a caller it breaks is found; with
 * --all, every problem of the patched files besides.
 */
import { answeredBy } from '../../answers/caller';
import type { Diagnostic, Severity } from '../../answers/diagnostics';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { atLeast, type DiagRequest, mergeDiagnostics, shownFrom } from '../../engine/diagnose';
import { introducedBy } from '../../engine/diagnose-tree';
import type { DiagResult } from './question';

const count = (list: Diagnostic[]) => {
  const summary: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of list) summary[d.severity]++;
  return summary;
};

export async function diagPatch(req: DiagRequest, ctx: HandlerContext): Promise<DiagResult> {
  const patch = req.patch ?? { files: [], binary: [] };
  const found = await introducedBy(patch.files, 'before', 'workspace', req, ctx, deadlineFor(req));
  const patched = new Set(patch.files.filter((f) => f.after !== null).map((f) => f.path));
  // --all: the patched files' problems that were there already are listed too, marked not new.
  const listed = new Set(req.all ? found.old.filter((d) => patched.has(d.path)) : []);
  const kept: Diagnostic[] = [...listed].map((d) => ({ ...d, new: false }));
  const shown = mergeDiagnostics([...found.fresh, ...kept]);
  const visible = shown.filter((d) => atLeast(d.severity, shownFrom(req)));
  const skipped = new Map(found.skipped);
  for (const path of patch.binary) skipped.set(path, 'a binary change, which no server checks');
  return {
    diagnostics: visible.slice(0, req.limit),
    summary: count(shown),
    shown: shownFrom(req),
    files: found.files,
    total: visible.length,
    truncated: visible.length > req.limit,
    incomplete: [...found.incomplete].sort(),
    skipped: [...skipped].map(([path, reason]) => ({ path, reason })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    answered: answeredBy(found.sessions),
    withheld: found.withheld,
    unchecked: found.unchecked,
    patch: {
      files: patch.files.map((f) => f.path).sort(),
      introduced: count(found.fresh),
      present: count(found.old.filter((d) => !listed.has(d))),
    },
  };
}
