/**
 * rename: prepareRename first where the server offers it (a place that
 * cannot be renamed is bad input, exit 2, with the server's reason), then
 * the workspace edit across every file, shown (--dry-run) or written all or
 * nothing.
 */
import {
  PrepareRenameRequest,
  RenameRequest,
  type PrepareRenameResult,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { LspqError } from '../../errors';
import { displayPath } from '../../render/paths';
import type { QueryFor, RenameResult } from '../../protocol/messages';
import { deadlineFor, using, type HandlerContext } from './context';
import { commit, fileEdits, planFor } from './edits';
import { openTarget } from './target';

/** The server's own words, without lspq's wrapping of a failed request. */
function reason(err: LspqError): string {
  const m = /failed [\w/]+: (.*?)(; see 'lspq daemon logs')?$/.exec(err.message);
  return m?.[1] ?? err.message;
}

export async function rename(req: QueryFor<'rename'>, ctx: HandlerContext): Promise<RenameResult> {
  const deadline = deadlineFor(req);
  const { session, target, uri, position, written } = await openTarget(
    req.target,
    req,
    ctx,
    deadline,
    'renameProvider',
    'rename',
  );
  return using(session, async () => {
    const client = session.client;
    const at = `${displayPath(target.path, req.cwd)}:${target.line}:${target.column}`;
    const provider = client.capabilities.renameProvider;
    if (typeof provider === 'object' && provider.prepareProvider) {
      let prepared: PrepareRenameResult | null;
      try {
        prepared = await client.request(
          PrepareRenameRequest.type,
          { textDocument: { uri }, position },
          deadline.options(ctx.signal),
        );
      } catch (err) {
        if (err instanceof LspqError && err.code === 'server_failed')
          throw new LspqError('cannot_rename', `${at} cannot be renamed: ${reason(err)}`);
        throw err;
      }
      if (!prepared)
        throw new LspqError(
          'cannot_rename',
          `${at} cannot be renamed: ${client.spec.id} finds no symbol there; point at the name to rename`,
        );
    }
    let edit: WorkspaceEdit | null;
    try {
      edit = await client.request(
        RenameRequest.type,
        { textDocument: { uri }, position, newName: req.newName },
        deadline.options(ctx.signal),
      );
    } catch (err) {
      if (err instanceof LspqError && err.code === 'server_failed')
        throw new LspqError('cannot_rename', `${at} cannot be renamed to '${req.newName}': ${reason(err)}`);
      throw err;
    }
    if (!edit) throw new LspqError('cannot_rename', `${at} cannot be renamed: ${client.spec.id} returned no edit`);
    const plan = planFor(edit, session);
    if (req.write) await commit(plan, session, req.allowOutside);
    return {
      target,
      server: client.spec.id,
      root: client.root,
      newName: req.newName,
      files: fileEdits(plan, written),
      applied: req.write,
    };
  });
}
