/**
 * fmt: each file formatted by its server (whole, or --range lines), with
 * the options of its .editorconfig; the new texts are shown as a diff,
 * written all or nothing (--write), or only compared (--check).
 */
import { DocumentFormattingRequest, DocumentRangeFormattingRequest, type TextEdit } from 'vscode-languageserver-protocol';
import { LspqError } from '../../errors';
import { formattingOptions } from '../../lsp/editorconfig';
import { applyTextEdits, keepFileConventions } from '../../lsp/edits';
import type { Session } from '../../lsp/manager';
import { splitLines, toServerCharacter } from '../../lsp/position';
import type { FmtFile, FmtResult, QueryFor } from '../../protocol/messages';
import { displayPath } from '../../render/paths';
import { writePlan } from '../apply-edit';
import { assertFile, deadlineFor, followLink, prepare, sessionFor, using, type Deadline, type HandlerContext } from './context';

async function formatOne(session: Session, path: string, req: QueryFor<'fmt'>, ctx: HandlerContext, deadline: Deadline): Promise<{ before: string; after: string; edits: number }> {
  return using(session, async () => {
    const before = await session.docs.sync(path);
    await prepare(session, ctx, deadline);
    const textDocument = { uri: session.docs.uri(path) };
    const options = formattingOptions(path);
    let edits: TextEdit[] | null;
    if (req.lines) {
      const lines = splitLines(before);
      const shown = displayPath(path, req.cwd);
      if (req.lines.end > lines.length) throw new LspqError('bad_position', `line ${req.lines.end} is outside ${shown}, which has ${lines.length} lines`);
      const last = lines[req.lines.end - 1]!;
      const range = { start: { line: req.lines.start - 1, character: 0 }, end: { line: req.lines.end - 1, character: toServerCharacter(last, last.length, session.client.encoding) } };
      edits = await session.client.request(DocumentRangeFormattingRequest.type, { textDocument, range, options }, deadline.options(ctx.signal));
    } else {
      edits = await session.client.request(DocumentFormattingRequest.type, { textDocument, options }, deadline.options(ctx.signal));
    }
    const list = edits ?? [];
    return { before, after: keepFileConventions(before, applyTextEdits(before, list, session.client.encoding, path)), edits: list.length };
  });
}

export async function fmt(req: QueryFor<'fmt'>, ctx: HandlerContext): Promise<FmtResult> {
  const deadline = deadlineFor(req);
  const files: (FmtFile & { real: string })[] = [];
  const sessions = new Set<Session>();
  const capability = req.lines ? 'documentRangeFormattingProvider' : 'documentFormattingProvider';
  for (const path of req.files) {
    assertFile(path);
    const { real, written } = followLink(path, req.cwd);
    const session = await sessionFor(ctx, req, real, capability, req.lines ? 'range formatting' : 'formatting');
    sessions.add(session);
    const { before, after, edits } = await formatOne(session, real, req, ctx, deadline);
    files.push({ path: written(real), real, changed: after !== before, edits, before, after });
  }
  if (req.write) {
    const changed = files.filter((f) => f.changed);
    // The user named these files: a file outside the server's root is theirs to format.
    writePlan({ files: changed.map((f) => ({ path: f.real, before: f.before, after: f.after, edits: f.edits })) }, { root: '/', allowOutside: true });
    for (const session of sessions) await session.docs.refreshAll();
  }
  const list = [...sessions];
  return {
    servers: [...new Set(list.map((s) => s.client.spec.id))],
    roots: [...new Set(list.map((s) => s.client.root))],
    files: files.map(({ real: _real, ...f }) => f),
    written: req.write,
  };
}
