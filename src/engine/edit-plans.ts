/**
 * What fmt, rename and actions share: a server's edit planned against the
 * texts the server was given, shown as FileEdits, and written all or
 * nothing, after which the server is told what changed.
 */
import { dirname } from 'node:path';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { checkoutTop } from '../project/checkout';
import { formattingOptions } from '../lsp/editorconfig';
import { readWorkspaceFile } from '../common/file-size';
import { nextTurn } from '../common/turns';
import { pathsOf, planWorkspaceEdit, type EditPlan } from '../lsp/workspace-edit';
import type { Session } from '../lsp/manager';
import type { CallerContext } from '../answers/caller';
import type { FileEdit } from '../answers/edits';
import { type ApplyOptions, readBytesNow, readNow, writePlan } from './apply-edit';
import type { JournalPlace } from './journal';
import type { EngineContext } from './context';

/**
 * The edit against what the server saw: an open document's text, else the
 * disk's. The files it names are read first, asynchronously, so an edit of
 * thousands of files keeps no other question waiting while they are read.
 */
export async function planFor(edit: WorkspaceEdit, session: Session): Promise<EditPlan> {
  const read = await readAhead(pathsOf(edit));
  const bytesOf = (path: string) => (read.has(path) ? read.get(path) : readBytesNow(path));
  return planWorkspaceEdit(
    edit,
    (path) => {
      const open = session.docs.text(path);
      if (open !== undefined || !read.has(path)) return open ?? readNow(path);
      const bytes = read.get(path);
      return bytes && Buffer.from(bytes).toString('utf8');
    },
    session.client.encoding,
    bytesOf,
  );
}

/** How many files are read at once. */
const READ_AHEAD = 64;

/**
 * Each file's bytes, undefined where it cannot be read, a slice at a time
 * with the daemon's other questions between slices. Read without blocking
 * (readWorkspaceFile): an asynchronous read of a FIFO the edit names waited
 * for a writer forever.
 */
async function readAhead(paths: string[]): Promise<Map<string, Uint8Array | undefined>> {
  const read = new Map<string, Uint8Array | undefined>();
  for (let i = 0; i < paths.length; i += READ_AHEAD) {
    if (i > 0) await nextTurn();
    for (const p of paths.slice(i, i + READ_AHEAD)) {
      const got = readWorkspaceFile(p, 'source');
      read.set(p, got.read ? got.bytes : undefined);
    }
  }
  return read;
}

/**
 * A server that keeps its format settings for itself (both TypeScript
 * servers): the style told to it is in force for every question, so a
 * question that depends on it holds the server alone while it asks.
 */
export const keepsStyle = (session: Session) => session.client.spec.style !== undefined;

/**
 * Before an edit is computed for `path`: the server is told the file's
 * style (its .editorconfig, else its own indentation), so the lines the
 * edit rewrites keep the file's indentation. The question holds the server
 * alone (keepsStyle), so no other question's style is in force meanwhile.
 */
export async function inFileStyle(session: Session, path: string): Promise<void> {
  await session.client.useStyle(formattingOptions(path, session.docs.text(path) ?? readNow(path)));
}

/** The plan's files as shown: in path order, whatever order the server listed them in. */
export function fileEdits(plan: EditPlan, shown: (path: string) => string = (p) => p): FileEdit[] {
  const files = [...plan.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files.map((f) => ({
    path: shown(f.path),
    changes: f.edits,
    before: f.before,
    after: f.after,
    ...(f.renamedTo ? { renamedTo: shown(f.renamedTo) } : {}),
  }));
}

/**
 * Where a diff of these files writes its paths from: the top of the
 * checkout that holds them, as git writes a patch (`git apply` reads its
 * paths from there, wherever in the checkout it runs); outside a checkout,
 * the current folder.
 */
export function patchTop(paths: readonly string[], cwd: string): string {
  const first = paths[0];
  return (first !== undefined ? checkoutTop(dirname(first)) : undefined) ?? checkoutTop(cwd) ?? cwd;
}

/** Where an edit is journaled, by the id its command gave it (or one of its own), and what to say of it once written. */
export function journalFor(ctx: EngineContext, req: CallerContext, summary: string): JournalPlace | undefined {
  if (!ctx.journalDir) return undefined;
  return { dir: ctx.journalDir, id: req.editId ?? crypto.randomUUID(), summary };
}

/**
 * Writes the plan (or nothing) through the one writer and brings the
 * servers' documents up to date with what was written. `where` is the root
 * the edit must stay under, unless outside is allowed.
 */
export async function commit(
  plan: EditPlan,
  sessions: Session[],
  where: Pick<ApplyOptions, 'root' | 'allowOutside' | 'journal' | 'confine'>,
): Promise<void> {
  const versionOf = (path: string) => sessions.find((s) => s.docs.isOpen(path))?.docs.version(path);
  await writePlan(plan, { ...where, versionOf });
  // Open documents are re-sent (didChange, didSave); renamed and deleted ones closed.
  for (const session of sessions) await session.docs.refreshAll();
}

/** How many edits and files a plan holds, as the commands say it. */
export function planSize(plan: EditPlan): string {
  const edits = plan.files.reduce((n, f) => n + f.edits, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(edits, 'edit')} in ${plural(plan.files.length, 'file')}`;
}
