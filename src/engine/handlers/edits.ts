/**
 * What fmt, rename and actions share: a server's edit planned against the
 * texts the server was given, shown as FileEdits, and written all or
 * nothing, after which the server is told what changed.
 */
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { planWorkspaceEdit, type EditPlan } from '../../lsp/edits';
import type { Session } from '../../lsp/manager';
import type { FileEdit } from '../../protocol/messages';
import { readNow, writePlan } from '../apply-edit';

/** The edit against what the server saw: an open document's text, else the disk's. */
export function planFor(edit: WorkspaceEdit, session: Session): EditPlan {
  return planWorkspaceEdit(edit, (path) => session.docs.text(path) ?? readNow(path), session.client.encoding);
}

/** The plan's files as shown: in path order, whatever order the server listed them in. */
export function fileEdits(plan: EditPlan, written: (path: string) => string = (p) => p): FileEdit[] {
  const files = [...plan.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files.map((f) => ({
    path: written(f.path),
    changes: f.edits,
    before: f.before,
    after: f.after,
    ...(f.renamedTo ? { renamedTo: written(f.renamedTo) } : {}),
  }));
}

/** Writes the plan (or nothing) and brings the server's documents up to date with what was written. */
export async function commit(plan: EditPlan, session: Session, allowOutside: boolean): Promise<void> {
  writePlan(plan, { root: session.client.root, allowOutside, versionOf: (p) => session.docs.version(p) });
  // Open documents are re-sent (didChange, didSave); renamed and deleted ones closed.
  await session.docs.refreshAll();
}
