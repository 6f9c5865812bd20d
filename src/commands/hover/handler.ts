/** hover: signature, type and documentation at a position. */
import { Requests } from '../../lsp/requests';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { LspqError } from '../../common/errors';
import { textsOf, using } from '../../engine/sessions';
import { atTarget, indexServer } from '../../engine/from-index';
import { openTarget } from '../../engine/open-target';
import { hoverText, toSpan } from '../../lsp/convert';
import { lastName } from '../../scip/scip-index';
import type { HoverQuery, HoverResult } from './question';

export async function hover(req: HoverQuery, ctx: HandlerContext): Promise<HoverResult> {
  const hit = await atTarget(req.target, req, ctx);
  const info = hit?.index.info(hit.symbol);
  const sig = info?.signature ? `\`\`\`${info.signature.language}\n${info.signature.text}\n\`\`\`` : '';
  const contents = [sig, ...(info?.documentation ?? [])].filter(Boolean).join('\n\n');
  // Nothing recorded is not "nothing to say": the live server may have it (def says the same of a definition).
  if (hit && !contents && req.index?.mode === 'only')
    throw new LspqError(
      'unsupported',
      `the index has no hover information of ${hit.target.symbol ?? lastName(hit.symbol)} (not recorded by ${indexServer(hit.index)}); drop --index-only to ask the live server`,
    );
  if (hit && contents) {
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
  // A file served by several (an .html file's own server and Tailwind's): where one has nothing to say at the
  // place, the next that offers hover is asked, unless the user named one.
  const asked: string[] = [];
  let first: HoverResult | undefined;
  for (;;) {
    let answer: HoverResult;
    try {
      answer = await hoverFrom(req, ctx, deadline, asked);
    } catch (err) {
      if (first && err instanceof LspqError && NO_OTHER.has(err.code)) return first;
      throw err;
    }
    if (answer.contents || req.server) return answer;
    first ??= answer;
    asked.push(answer.server);
  }
}

/** What ends the search for another server: there is none to ask. */
const NO_OTHER = new Set(['server_not_installed', 'unsupported', 'untrusted']);

async function hoverFrom(req: HoverQuery, ctx: HandlerContext, deadline: Deadline, skip: string[]) {
  const opened = await openTarget(req.target, req, ctx, deadline, 'hoverProvider', 'hover', skip);
  const { session, target, uri, position } = opened;
  return using(session, async (): Promise<HoverResult> => {
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
