/** hover: signature, type and documentation at a position. */
import { Requests } from '../../lsp/requests';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { textsOf, using } from '../../engine/sessions';
import { atTarget, indexServer } from '../../engine/from-index';
import { openTarget } from '../../engine/open-target';
import { hoverText, toSpan } from '../../lsp/convert';
import type { HoverQuery, HoverResult } from './question';

export async function hover(req: HoverQuery, ctx: HandlerContext): Promise<HoverResult> {
  const hit = await atTarget(req.target, req, ctx);
  const info = hit?.index.info(hit.symbol);
  const sig = info?.signature ? `\`\`\`${info.signature.language}\n${info.signature.text}\n\`\`\`` : '';
  const contents = [sig, ...(info?.documentation ?? [])].filter(Boolean).join('\n\n');
  if (hit && (contents || req.index?.mode === 'only')) {
    return {
      target: hit.target,
      server: indexServer(hit.index),
      root: hit.index.root,
      contents,
      range: null,
      source: 'index',
      stale: hit.stale.filter((p) => p !== hit.target.path),
    };
  }
  const deadline = deadlineFor(req);
  const { session, target, uri, position } = await openTarget(req.target, req, ctx, deadline, 'hoverProvider', 'hover');
  return using(session, async () => {
    const client = session.client;
    const raw = await client.request(Requests.hover, { textDocument: { uri }, position }, deadline.options(ctx));
    const texts = textsOf(session, ctx);
    return {
      target,
      server: client.spec.id,
      root: client.root,
      contents: raw ? hoverText(raw.contents) : '',
      range: raw?.range ? toSpan(target.path, raw.range, texts, client.encoding) : null,
      source: 'server',
    };
  });
}
