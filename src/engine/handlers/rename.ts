/**
 * rename: prepareRename first where the server offers it (a place that
 * cannot be renamed is bad input, exit 2, with the server's reason), then
 * the workspace edit across every file, shown (--dry-run) or written all or
 * nothing. A rename that writes holds its server alone from the request to
 * the re-sync, so no other question sees the files half-renamed.
 */
import {
  PrepareRenameRequest,
  type PrepareRenameResult,
  RenameRequest,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { LspqError } from '../../errors';
import type { QueryFor, RenameResult } from '../../queries';
import { displayPath } from '../../protocol/paths';
import { deadlineFor, type HandlerContext, holdAlone, using } from './context';
import { commitFor, fileEdits, planFor } from './edits';
import { openTarget } from './target';

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

export async function rename(req: QueryFor<'rename'>, ctx: HandlerContext): Promise<RenameResult> {
  const deadline = deadlineFor(req);
  let open = await openTarget(req.target, req, ctx, deadline, 'renameProvider', 'rename');
  if (req.write) {
    await holdAlone([open.session], req, ctx, deadline);
    // Found again under the lease: the file may have changed while this question waited for it.
    open = await openTarget(req.target, req, ctx, deadline, 'renameProvider', 'rename');
  }
  const { session, target, uri, position, shown } = open;
  return using(session, async () => {
    const client = session.client;
    const at = `${displayPath(target.path, req.cwd)}:${target.line}:${target.column}`;
    const provider = client.capabilities.renameProvider;
    if (typeof provider === 'object' && provider.prepareProvider) {
      const prepared: PrepareRenameResult | null = await client
        .request(PrepareRenameRequest.type, { textDocument: { uri }, position }, deadline.options(ctx))
        .catch(refused(at, 'renamed'));
      if (!prepared) {
        throw new LspqError(
          'cannot_rename',
          `${at} cannot be renamed: ${client.spec.id} finds no symbol there; point at the name to rename`,
        );
      }
    }
    const edit: WorkspaceEdit | null = await client
      .request(RenameRequest.type, { textDocument: { uri }, position, newName: req.newName }, deadline.options(ctx))
      .catch(refused(at, `renamed to '${req.newName}'`));
    if (!edit) throw new LspqError('cannot_rename', `${at} cannot be renamed: ${client.spec.id} returned no edit`);
    const plan = planFor(edit, session);
    if (req.write) await commitFor(plan, session, req.allowOutside);
    return {
      target,
      server: client.spec.id,
      root: client.root,
      newName: req.newName,
      files: fileEdits(plan, shown),
      applied: req.write,
    };
  });
}
