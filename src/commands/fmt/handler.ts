/**
 * fmt: each file formatted by the formatter its project's configuration
 * names (project-formatter.ts), else by its server with the options of its
 * .editorconfig (whole, or --range lines); the new texts are shown as a
 * diff, written all or nothing (--write), or only compared (--check).
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
import type { FmtFile, FmtFormatter, FmtResult } from './question';
import { displayPath } from '../../common/paths';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { assertConfined, assertFile, followLink, nameInProject } from '../../engine/files';
import { outsideFile } from '../../engine/open-target';
import { prepare, sessionFor, using, holdAlone } from '../../engine/sessions';
import { commit, inFileStyle, journalFor, keepsStyle, patchTop, planFor } from '../../engine/edit-plans';
import type { Answered } from '../../answers/caller';
import { repositoryOf } from '../../trust/store';
import { dirname } from 'node:path';
import type { FmtQuery } from './question';
import { readWorkspaceFile } from '../../common/file-size';
import { isUtf8 } from '../../lsp/file-bytes';
import type { NamedFormatter } from '../../lsp/servers/formatters';
import { formattedEdits } from './line-edits';
import { projectFormatter, type ProjectRun, runFormatter } from './project-formatter';

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

/** The project's formatters run at once, at most this many: each is a process of its own (prettier: a node). */
const FORMATTERS_AT_ONCE = 4;

/** One file formatted by its project's formatter: the text on disk and the text it printed, as edits. */
async function formatWithProject(
  run: ProjectRun,
  path: string,
  req: FmtQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<FileChange> {
  const shown = displayPath(path, req.cwd);
  const read = readWorkspaceFile(path, 'source');
  if (!read.read) throw new LspqError('file_not_found', `${shown} could not be read; check the path`);
  if (!isUtf8(read.bytes))
    throw new LspqError(
      'not_utf8',
      `${shown} is not UTF-8, and ${run.formatter.name} formats UTF-8 text; nothing was written (convert the file to UTF-8, or give --server to format with the server's formatter)`,
    );
  const before = read.bytes.toString('utf8');
  if (req.lines) {
    const lines = splitLines(before);
    if (lines[req.lines.end - 1] === undefined) throw outsideFile(shown, req.lines.end, lines);
  }
  const formatted = await runFormatter(run, path, before, req, ctx, deadline);
  const { after, edits } = formattedEdits(before, formatted, req.lines);
  return { path, before, after, edits };
}

/** What decided a file's formatting, as the answer names it. */
function projectNamed(run: ProjectRun): FmtFormatter {
  return { name: run.formatter.name, by: 'project', config: run.config, binary: run.binary };
}

function serverNamed(session: Session, passedOver: NamedFormatter | undefined): FmtFormatter {
  const runs = session.client.spec.formatsWith;
  return {
    name: session.client.spec.id,
    by: 'server',
    ...(runs ? { runs } : {}),
    ...(passedOver ? { passedOver: { name: passedOver.formatter.name, config: passedOver.config } } : {}),
  };
}

interface Asked {
  real: string;
  shown: string;
  named: string;
  index: number;
}

export async function fmt(req: FmtQuery, ctx: HandlerContext): Promise<FmtResult> {
  const deadline = deadlineFor(req);
  const files: (Omit<FmtFile, 'edits'> & {
    real: string;
    named: string;
    index: number;
    change: FileChange;
    by: Answered;
  })[] = [];
  const sessions = new Set<Session>();
  const capability = req.lines ? 'documentRangeFormattingProvider' : 'documentFormattingProvider';
  const batches = new Map<Session, (Asked & { passedOver?: NamedFormatter })[]>();
  const own: (Asked & { run: ProjectRun })[] = [];
  // The project's own formatter decides where its configuration names one, unless --server chose.
  for (const [index, path] of req.files.entries()) {
    // The project's formatter reads the file itself: one outside an MCP server's workspace is refused first.
    assertConfined(path, req.confine);
    assertFile(path);
    const { real, shown } = followLink(path, req.cwd);
    const choice = req.server ? undefined : projectFormatter(real, req, ctx);
    if (choice && 'run' in choice) {
      own.push({ real, shown: shown(real), named: path, index, run: choice.run });
      continue;
    }
    const session = await sessionFor(ctx, req, real, capability, req.lines ? 'range formatting' : 'formatting');
    const asked = nameInProject(path, real, session.client.root);
    const passedOver = choice?.passedOver;
    const entry = { real: asked, shown: shown(asked), named: path, index, ...(passedOver ? { passedOver } : {}) };
    batches.set(session, [...(batches.get(session) ?? []), entry]);
  }
  const formatters = new Map<string, FmtFormatter>();
  const decided = (f: Asked, change: FileChange, formatter: FmtFormatter, by: Answered) => {
    formatters.set(JSON.stringify(formatter), formatter);
    const [before, after] = [change.before ?? '', change.after ?? ''];
    const { shown: path, real, named, index } = f;
    files.push({
      path,
      real,
      named,
      index,
      changed: after !== before,
      before,
      after,
      change,
      formatter: formatter.name,
      by,
    });
  };
  for (let i = 0; i < own.length; i += FORMATTERS_AT_ONCE) {
    const slice = own.slice(i, i + FORMATTERS_AT_ONCE);
    const changes = await Promise.all(slice.map((f) => formatWithProject(f.run, f.real, req, ctx, deadline)));
    for (const [k, f] of slice.entries()) {
      const change = changes[k];
      // The project's formatter answered, from the folder it ran in (its configuration's).
      if (change) decided(f, change, projectNamed(f.run), { server: f.run.formatter.name, root: f.run.cwd });
    }
  }
  // Writing holds the servers alone, from the formatting request to the re-sync; so does formatting
  // with a server that formats in the style it was last told (another question's, else).
  if (req.write || [...batches.keys()].some(keepsStyle)) await holdAlone([...batches.keys()], req, ctx, deadline);
  for (const [session, batch] of batches) {
    sessions.add(session);
    // More files than a server keeps open go in slices, so each slice's documents stay open until formatted.
    for (let i = 0; i < batch.length; i += MAX_OPEN_DOCUMENTS / 2) {
      const slice = batch.slice(i, i + MAX_OPEN_DOCUMENTS / 2);
      for (const { f, change } of await formatBatch(session, slice, req, ctx, deadline))
        decided(f, change, serverNamed(session, f.passedOver), {
          server: session.client.spec.id,
          root: session.client.root,
        });
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
  // Who answered, each once, in the order of the files they formatted.
  const answered = new Map(files.map((f) => [`${f.by.server}\0${f.by.root}`, f.by] as const));
  return {
    answered: [...answered.values()],
    files: files.map(({ path, changed, change, before, after, formatter }) => ({
      path,
      changed,
      edits: change.edits,
      before,
      after,
      formatter,
    })),
    formatters: [...formatters.values()],
    chosen: req.server !== undefined,
    patchTop: patchTop(
      files.map((f) => f.path),
      req.cwd,
    ),
    written: req.write,
  };
}
