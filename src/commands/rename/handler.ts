/**
 * rename: prepareRename first where the server offers it (a place that
 * cannot be renamed is bad input, exit 2, with the server's reason), then
 * the workspace edit across every file, shown (--dry-run) or written all or
 * nothing. A rename that writes holds its server alone from the request to
 * the re-sync, so no other question sees the files half-renamed.
 */
import { Requests } from '../../lsp/requests';
import { isIdentifierChar as isWord } from '../../common/identifiers';
import type { PrepareRenameResult, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspqError } from '../../common/errors';
import type { RenameResult } from './answer';
import { displayPath } from '../../common/paths';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { holdAlone, using } from '../../engine/sessions';
import { commit, fileEdits, inFileStyle, journalFor, keepsStyle, planFor, planSize } from '../../engine/edit-plans';
import { verifyWritten } from '../../engine/verify';
import { loadProjects } from '../../engine/projects';
import { openTarget } from '../../engine/open-target';
import { unrenamed } from '../../engine/unrenamed';
import type { RenameQuery } from './answer';

/** The name at a 1-based line and column of a text: what a rename target points at. */
function wordAt(text: string, line: number, column: number): string | undefined {
  const chars = Array.from(text.split('\n')[line - 1] ?? '');
  let start = column - 1;
  let end = column - 1;
  while (start > 0 && isWord(chars[start - 1])) start--;
  while (isWord(chars[end])) end++;
  return end > start ? chars.slice(start, end).join('') : undefined;
}

/** A server's refusal as bad input, in the server's own words. */
function refused<T>(at: string, what: string): (err: unknown) => T {
  return (err) => {
    // The server's own refusal is bad input; a server that failed otherwise (a malformed answer) is not.
    if (err instanceof LspqError && err.code === 'server_failed' && err.serverReason !== undefined) {
      throw new LspqError('cannot_rename', `${at} cannot be ${what}: ${err.serverReason ?? err.message}`);
    }
    throw err;
  };
}

export async function rename(req: RenameQuery, ctx: HandlerContext): Promise<RenameResult> {
  const deadline = deadlineFor(req);
  let open = await openTarget(req.target, req, ctx, deadline, 'renameProvider', 'rename');
  // Written, or computed with a style the server holds for every question: this question's alone.
  if (req.write || keepsStyle(open.session)) {
    await holdAlone([open.session], req, ctx, deadline);
    // Found again under the lease: the file may have changed while this question waited for it.
    open = await openTarget(req.target, req, ctx, deadline, 'renameProvider', 'rename');
  }
  const { session, target, uri, position, shown } = open;
  return using(session, async () => {
    const client = session.client;
    // Every project of the workspace renames its uses.
    await loadProjects(session, ctx, deadline);
    const at = `${displayPath(target.path, req.cwd)}:${target.line}:${target.column}`;
    const provider = client.capabilities.renameProvider;
    if (typeof provider === 'object' && provider.prepareProvider) {
      const prepared: PrepareRenameResult | null = await client
        .request(Requests.prepareRename, { textDocument: { uri }, position }, deadline.options(ctx))
        .catch(refused(at, 'renamed'));
      if (!prepared) {
        throw new LspqError(
          'cannot_rename',
          `${at} cannot be renamed: ${client.spec.id} finds no symbol there; point at the name to rename`,
        );
      }
    }
    await inFileStyle(session, open.path);
    const edit: WorkspaceEdit | null = await client
      .request(Requests.rename, { textDocument: { uri }, position, newName: req.newName }, deadline.options(ctx))
      .catch(refused(at, `renamed to '${req.newName}'`));
    if (!edit) throw new LspqError('cannot_rename', `${at} cannot be renamed: ${client.spec.id} returned no edit`);
    const plan = planFor(edit, session);
    // The name as it is before the edit is written: after it, the target's place holds the new one.
    const oldName =
      target.symbol?.split('.').pop() ?? wordAt(session.docs.text(open.path) ?? '', target.line, target.column);
    const where = { root: client.root, allowOutside: req.allowOutside };
    if (req.write)
      await commit(plan, [session], {
        ...where,
        journal: journalFor(ctx, req, `renamed to '${req.newName}': ${planSize(plan)}`),
      });
    const verification =
      req.write && req.verify ? await verifyWritten(plan, [session], where, req, ctx, deadline) : undefined;
    const touched = new Set(plan.files.flatMap((f) => [f.path, ...(f.renamedTo ? [f.renamedTo] : [])]));
    const left = oldName ? unrenamed(client.spec, client.root, oldName, touched) : [];
    return {
      target,
      server: client.spec.id,
      root: client.root,
      newName: req.newName,
      files: fileEdits(plan, shown),
      applied: req.write,
      unrenamed: left.map(({ leftover: _, ...l }) => ({ ...l, path: shown(l.path) })),
      leftovers: [...new Set(left.map((l) => l.leftover))],
      ...(oldName ? { oldName } : {}),
      ...(verification ? { verification } : {}),
    };
  });
}
