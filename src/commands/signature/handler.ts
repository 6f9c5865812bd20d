/** signature: the callee's signatures at a place in a call, from the server's signature help. */
import { SignatureHelpTriggerKind } from 'vscode-languageserver-protocol';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { openTarget } from '../../engine/open-target';
import { using } from '../../engine/sessions';
import { splitLines, toServerCharacter, toStringOffset } from '../../lsp/position';
import { Requests } from '../../lsp/requests';
import type { SignatureQuery, SignatureResult } from './question';
import { intoCall, signaturesOf } from './read';

export async function signature(req: SignatureQuery, ctx: HandlerContext): Promise<SignatureResult> {
  const deadline = deadlineFor(req);
  const opened = await openTarget(req.target, req, ctx, deadline, 'signatureHelpProvider', 'signature help', [], true);
  const { session, target, uri } = opened;
  return using(session, async (): Promise<SignatureResult> => {
    const client = session.client;
    const line = splitLines(session.docs.text(opened.path) ?? '')[opened.position.line] ?? '';
    const index = intoCall(line, toStringOffset(line, opened.position.character, client.encoding));
    const column = [...line.slice(0, index)].length;
    const position = { line: opened.position.line, character: toServerCharacter(line, column, client.encoding) };
    const help = await client.request(
      Requests.signatureHelp,
      {
        textDocument: { uri },
        position,
        context: { triggerKind: SignatureHelpTriggerKind.Invoked, isRetrigger: false },
      },
      deadline.options(ctx),
    );
    return { target, server: client.spec.id, root: client.root, ...signaturesOf(help) };
  });
}
