/**
 * fmt: each file formatted by its server (whole, or --range lines), with
 * the options of its .editorconfig; the new texts are shown as a diff,
 * written all or nothing (--write), or only compared (--check).
 */
import { Requests } from '../../lsp/requests';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { LspqError } from '../../common/errors';
import { formattingOptions } from '../../lsp/editorconfig';
import { MAX_OPEN_DOCUMENTS } from '../../lsp/documents';
import type { FileChange } from '../../lsp/workspace-edit';
import type { Session } from '../../lsp/manager';
import { fromServerCharacter, splitLines, toServerCharacter } from '../../lsp/position';
import { DocumentDiagnosticReportKind } from 'vscode-languageserver-protocol';
import { offersPull } from '../../lsp/complete-diagnostics';
import type { FmtFile, FmtResult } from './question';
import { displayPath } from '../../common/paths';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { assertFile, followLink, nameInProject } from '../../engine/files';
import { outsideFile } from '../../engine/open-target';
import { prepare, sessionFor, using, holdAlone } from '../../engine/sessions';
import { commit, inFileStyle, journalFor, keepsStyle, patchTop, planFor } from '../../engine/edit-plans';
import { answeredBy } from '../../answers/caller';
import { repositoryOf } from '../../trust/store';
import { dirname } from 'node:path';
import type { FmtQuery } from './question';

/** One file's formatting edits applied: the text the server had and the text after. */
async function formatOne(
  session: Session,
  path: string,
  req: FmtQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<FileChange> {
  const before = session.docs.text(path) ?? (await session.docs.sync(path));
  const textDocument = { uri: session.docs.uri(path) };
  // The file's own style where its .editorconfig says nothing: a tab-indented file stays tab-indented.
  const options = formattingOptions(path, before);
  let edits: TextEdit[] | null;
  if (req.lines) {
    const lines = splitLines(before);
    const shown = displayPath(path, req.cwd);
    const last = lines[req.lines.end - 1];
    if (last === undefined) throw outsideFile(shown, req.lines.end, lines);
    const range = {
      start: { line: req.lines.start - 1, character: 0 },
      end: { line: req.lines.end - 1, character: toServerCharacter(last, last.length, session.client.encoding) },
    };
    edits = await session.client.request(
      Requests.rangeFormatting,
      { textDocument, range, options },
      deadline.options(ctx),
    );
  } else {
    edits = await session.client.request(Requests.formatting, { textDocument, options }, deadline.options(ctx));
  }
  if (!edits?.length) await formattedNothing(session, path, req, ctx, deadline);
  // The one planner every edit goes through (encodings, CRLF and BOM kept, overlaps refused).
  const planned = (await planFor({ changes: { [textDocument.uri]: edits ?? [] } }, session)).files[0];
  return planned ?? { path, before, after: before, edits: 0 };
}

/** The formatting under way in each server that formats one document at a time, whichever command asked. */
const formatting = new WeakMap<Session, Promise<unknown>>();

function oneAtATime<T>(session: Session, format: () => Promise<T>): Promise<T> {
  const next = (formatting.get(session) ?? Promise.resolve()).catch(() => undefined).then(format);
  formatting.set(session, next);
  return next;
}

/** Whether each server formats at all, asked once of it (its probe's answer). */
const formatsAtAll = new WeakMap<Session, Promise<boolean>>();

/**
 * A server that answered no edits: already formatted, unless it is one
 * that says the same when it formatted nothing (its registry entry's
 * quietFormatter). A checker that could not run is no pass: exit 3 naming
 * what is missing, or the file its formatter cannot parse.
 */
async function formattedNothing(
  session: Session,
  path: string,
  req: FmtQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<void> {
  const quiet = session.client.spec.quietFormatter;
  const id = session.client.spec.id;
  const shown = displayPath(path, req.cwd);
  if (quiet?.by === 'probe') {
    let known = formatsAtAll.get(session);
    if (!known) {
      known = probeFormatter(session, quiet, ctx, deadline);
      formatsAtAll.set(session, known);
    }
    if (await known) return;
    throw new LspqError(
      'unsupported',
      `${id} formats nothing here, so ${shown} was not checked: none of its formatter plugins (${quiet.plugins}) is installed or enabled; install one where ${id} runs, or install ruff, which lspq asks first`,
    );
  }
  if (quiet?.by === 'syntax-errors' && offersPull(session)) {
    const uri = session.docs.uri(path);
    const report = await session.client.request(
      Requests.documentDiagnostic,
      { textDocument: { uri } },
      deadline.options(ctx),
    );
    const items = report.kind === DocumentDiagnosticReportKind.Full ? report.items : [];
    const first = items.find((d) => d.code === quiet.code);
    if (!first) return;
    const text = session.docs.text(path) ?? '';
    const line = first.range.start.line;
    const lineText = splitLines(text)[line] ?? '';
    const column = fromServerCharacter(lineText, first.range.start.character, session.client.encoding) + 1;
    throw new LspqError(
      'unsupported',
      `${id} formatted nothing in ${shown}: ${quiet.formatter} cannot parse it (${shown}:${line + 1}:${column}: ${first.message}); fix the syntax error, then format`,
    );
  }
}

/** Whether a server formats at all: a document no formatter leaves as it is, given to it unsaved and asked. */
async function probeFormatter(
  session: Session,
  probe: { file: string; text: string },
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<boolean> {
  const path = `${session.client.root}/${probe.file}`;
  await session.docs.overlay(path, probe.text);
  try {
    const options = { tabSize: 4, insertSpaces: true };
    const edits = await session.client.request(
      Requests.formatting,
      { textDocument: { uri: session.docs.uri(path) }, options },
      deadline.options(ctx),
    );
    return (edits ?? []).length > 0;
  } finally {
    await session.docs.close(path);
  }
}

/**
 * A server's files: synced, readiness awaited once, then every formatting
 * request sent at once (servers answer them concurrently; one after the
 * other cost cobra's 36 files three times gofmt's time).
 */
async function formatBatch<F extends { real: string }>(
  session: Session,
  batch: F[],
  req: FmtQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ f: F; change: FileChange }[]> {
  const format = async (f: F) => ({ f, change: await formatOne(session, f.real, req, ctx, deadline) });
  return using(session, async () => {
    for (const f of batch) await session.docs.sync(f.real);
    await prepare(session, ctx, deadline);
    if (session.client.spec.formatsOneAtATime) {
      const out: { f: F; change: FileChange }[] = [];
      for (const f of batch) out.push(await oneAtATime(session, () => format(f)));
      return out;
    }
    if (!keepsStyle(session)) return Promise.all(batch.map(format));
    // A server that formats with the style it was last told: the files of one style at a time, told it first.
    const styles = new Map<string, { first: F; all: F[] }>();
    for (const f of batch) {
      const style = JSON.stringify(formattingOptions(f.real, session.docs.text(f.real) ?? ''));
      const group = styles.get(style);
      if (group) group.all.push(f);
      else styles.set(style, { first: f, all: [f] });
    }
    const out: { f: F; change: FileChange }[] = [];
    for (const { first, all } of styles.values()) {
      await inFileStyle(session, first.real);
      out.push(...(await Promise.all(all.map(format))));
    }
    return out;
  });
}

export async function fmt(req: FmtQuery, ctx: HandlerContext): Promise<FmtResult> {
  const deadline = deadlineFor(req);
  const files: (Omit<FmtFile, 'edits'> & { real: string; named: string; index: number; change: FileChange })[] = [];
  const sessions = new Set<Session>();
  const capability = req.lines ? 'documentRangeFormattingProvider' : 'documentFormattingProvider';
  const batches = new Map<Session, { real: string; shown: string; named: string; index: number }[]>();
  for (const [index, path] of req.files.entries()) {
    assertFile(path);
    const { real, shown } = followLink(path, req.cwd);
    const session = await sessionFor(ctx, req, real, capability, req.lines ? 'range formatting' : 'formatting');
    const asked = nameInProject(path, real, session.client.root);
    batches.set(session, [...(batches.get(session) ?? []), { real: asked, shown: shown(asked), named: path, index }]);
  }
  // Writing holds the servers alone, from the formatting request to the re-sync; so does formatting
  // with a server that formats in the style it was last told (another question's, else).
  if (req.write || [...batches.keys()].some(keepsStyle)) await holdAlone([...batches.keys()], req, ctx, deadline);
  for (const [session, batch] of batches) {
    sessions.add(session);
    // More files than a server keeps open go in slices, so each slice's documents stay open until formatted.
    for (let i = 0; i < batch.length; i += MAX_OPEN_DOCUMENTS / 2) {
      const slice = batch.slice(i, i + MAX_OPEN_DOCUMENTS / 2);
      for (const { f, change } of await formatBatch(session, slice, req, ctx, deadline)) {
        const [before, after] = [change.before ?? '', change.after ?? ''];
        const { shown: path, real, named, index } = f;
        files.push({ path, real, named, index, changed: after !== before, before, after, change });
      }
    }
  }
  // In the order the files were named.
  files.sort((a, b) => a.index - b.index);
  if (req.write) {
    // The user named these files: each is written where it lands only if that is inside the workspace its name
    // lies in (a link does not lead a write out of it), unless --allow-outside.
    const plan = { files: files.filter((f) => f.changed).map((f) => f.change) };
    const named = new Map(files.map((f) => [f.change.path, f.named] as const));
    const root = (path: string) => repositoryOf(dirname(named.get(path) ?? path));
    const summary = `formatted ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}`;
    await commit(plan, [...sessions], {
      root,
      allowOutside: req.allowOutside,
      confine: req.confine,
      journal: journalFor(ctx, req, summary),
    });
  }
  const list = [...sessions];
  return {
    answered: answeredBy(list),
    files: files.map(({ path, changed, change, before, after }) => ({
      path,
      changed,
      edits: change.edits,
      before,
      after,
    })),
    patchTop: patchTop(
      files.map((f) => f.path),
      req.cwd,
    ),
    written: req.write,
  };
}
