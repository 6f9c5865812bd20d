/** hover: signature, type and documentation at a position. */
import { HoverRequest } from 'vscode-languageserver-protocol';
import { hoverText, toSpan } from '../../lsp/convert';
import type { HoverResult, QueryRequest } from '../../queries';
import { deadlineFor, using, textsOf, type HandlerContext } from './context';
import { openTarget } from './target';

export async function hover(req: Extract<QueryRequest, { op: 'hover' }>, ctx: HandlerContext): Promise<HoverResult> {
  const deadline = deadlineFor(req);
  const { session, target, uri, position } = await openTarget(req.target, req, ctx, deadline, 'hoverProvider', 'hover');
  return using(session, async () => {
    const client = session.client;
    const raw = await client.request(HoverRequest.type, { textDocument: { uri }, position }, deadline.options(ctx));
    const texts = textsOf(session, ctx);
    return {
      target,
      server: client.spec.id,
      root: client.root,
      contents: raw ? hoverText(raw.contents) : '',
      range: raw?.range ? toSpan(target.path, raw.range, texts, client.encoding) : null,
    };
  });
}
