/**
 * actions: the code actions at a position, a line or a range of lines, with
 * the diagnostics there in the request's context (so quick fixes appear);
 * --apply N or --apply-preferred applies one: resolved when it comes
 * without its edit, its command run with workspace/executeCommand, and the
 * edits the server sends back (workspace/applyEdit) written all or nothing.
 */
import { lstatSync, realpathSync, rmSync, statSync } from 'node:fs';
import { Requests } from '../../lsp/requests';
import {
  CodeActionTriggerKind,
  type CodeAction,
  type Command,
  type Diagnostic,
  type Range,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { LspqError, messageOf, usage } from '../../common/errors';
import { completeDiagnostics, publishMarks } from '../../lsp/complete-diagnostics';
import { bytesOf, composePlans, type EditPlan, planWorkspaceEdit } from '../../lsp/workspace-edit';
import { readBytesNow, readNow } from '../../engine/apply-edit';
import type { Session } from '../../lsp/manager';
import { codePointLength, splitLines, toServerCharacter } from '../../lsp/position';
import type { FileEdit } from '../../answers/edits';
import type { Span } from '../../answers/places';
import type { ActionsResult, CodeActionItem } from './question';
import type { LineSpec } from '../../common/target';
import { pathToUri, uriToPath } from '../../lsp/uri';
import { displayPath } from '../../common/paths';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { assertConfined, assertFile, followLink, nameInProject } from '../../engine/files';
import { prepare, sessionFor, candidatesFor, acquire, using, holdAlone } from '../../engine/sessions';
import { familyOf, onePerFamily } from '../../engine/sessions';
import { commit, fileEdits, inFileStyle, journalFor, keepsStyle, patchTop, planFor } from '../../engine/edit-plans';
import { verifyPlanned, verifyWritten } from '../../engine/verify';
import { openTarget, outsideFile } from '../../engine/open-target';
import { answeredBy } from '../../answers/caller';
import { actionId } from './action-id';
import type { ActionsQuery } from './question';

interface Place {
  session: Session;
  path: string;
  shown: (path: string) => string;
  range: Range;
  span: Span;
}

const isLines = (place: ActionsQuery['place']): place is LineSpec => 'startLine' in place;

async function placeOf(req: ActionsQuery, ctx: HandlerContext, deadline: Deadline): Promise<Place> {
  const place = req.place;
  if (!isLines(place)) {
    const { session, path, target, position, shown } = await openTarget(
      place,
      req,
      ctx,
      deadline,
      'codeActionProvider',
      'code actions',
    );
    return {
      session,
      path,
      shown,
      range: { start: position, end: position },
      span: { line: target.line, column: target.column, endLine: target.line, endColumn: target.column },
    };
  }
  assertConfined(place.path, req.confine);
  assertFile(place.path);
  const { real, shown } = followLink(place.path, req.cwd);
  const session = await sessionFor(ctx, req, real, 'codeActionProvider', 'code actions');
  const asked = nameInProject(place.path, real, session.client.root);
  const lines = splitLines(await session.docs.sync(asked));
  const last = lines[place.endLine - 1];
  if (last === undefined) throw outsideFile(displayPath(place.path, req.cwd), place.endLine, lines);
  await prepare(session, ctx, deadline);
  const end = {
    line: place.endLine - 1,
    character: toServerCharacter(last, codePointLength(last), session.client.encoding),
  };
  return {
    session,
    path: asked,
    shown,
    range: { start: { line: place.startLine - 1, character: 0 }, end },
    span: { line: place.startLine, column: 1, endLine: place.endLine, endColumn: codePointLength(last) + 1 },
  };
}

const overlaps = (a: Range, b: Range) =>
  !(
    a.end.line < b.start.line ||
    (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line ||
    (b.end.line === a.start.line && b.end.character < a.start.character)
  );

const isCommand = (item: Command | CodeAction): item is Command => typeof item.command === 'string';

const kindOf = (item: Command | CodeAction) => (isCommand(item) ? 'command' : (item.kind ?? ''));

function matchesKind(kind: string, wanted: string[] | undefined): boolean {
  return !wanted || wanted.some((k) => kind === k || kind.startsWith(`${k}.`));
}

/** Files and edit counts of an edit, read from its shape (nothing is resolved or run for a listing). */
function touched(
  edit: WorkspaceEdit | undefined,
  shown: (path: string) => string,
): { path: string; changes: number }[] {
  if (!edit) return [];
  const counts = new Map<string, number>();
  const add = (uri: string, n: number) => {
    const path = shown(uriToPath(uri) ?? uri);
    counts.set(path, (counts.get(path) ?? 0) + n);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits.length);
  for (const op of edit.documentChanges ?? []) {
    if ('textDocument' in op) add(op.textDocument.uri, op.edits.length);
    else add(op.kind === 'rename' ? op.oldUri : op.uri, 1);
  }
  return [...counts].map(([path, changes]) => ({ path, changes }));
}

/**
 * Runs the chosen action: its edit, then its command (whose edits come back
 * as workspace/applyEdit), each planned on what the ones before it leave;
 * all of them written once, as one plan, after the command ends.
 */
async function run(
  session: Session,
  item: Command | CodeAction,
  summary: string,
  req: ActionsQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ plan: EditPlan; urls: string[] }> {
  const client = session.client;
  let action = item;
  const provider = client.capabilities.codeActionProvider;
  if (!isCommand(action) && !action.edit && typeof provider === 'object' && provider.resolveProvider) {
    action = await client.request(Requests.resolveCodeAction, action, deadline.options(ctx));
  }
  const plans: EditPlan[] = [];
  if (!isCommand(action) && action.edit) plans.push(await planFor(action.edit, session));
  const command = isCommand(action) ? action : action.command;
  const urls: string[] = [];
  if (command) {
    // The edits the server sends back while its command runs belong to this question (it holds the server alone).
    // An edit of the command's that cannot be planned fails the question, whatever the command answers.
    let failed: unknown;
    const onApplyEdit = async (edit: WorkspaceEdit) => {
      try {
        plans.push(planAfter(edit, session, plans));
        // A dry run answers with the plan too: a server that stops on a refusal (gopls's "Add test")
        // would show nothing; the files are written, or not, once the command ends.
        return { applied: true };
      } catch (err) {
        failed ??= err;
        return { applied: false, failureReason: messageOf(err) };
      }
    };
    const started = Date.now();
    await client.applyingEdits(
      onApplyEdit,
      (uri) => urls.push(uri),
      () =>
        client.request(
          Requests.executeCommand,
          { command: command.command, arguments: command.arguments ?? [] },
          deadline.options(ctx),
        ),
    );
    if (failed) throw failed;
    takeBackServerFiles(plans, client.root, started);
  }
  const plan = composePlans(plans.length ? plans : [{ files: [] }]);
  if (req.write) {
    const where = { root: client.root, allowOutside: req.allowOutside, confine: req.confine };
    await commit(plan, [session], { ...where, journal: journalFor(ctx, req, summary) });
  }
  return { plan, urls };
}

/** How far a file's birth time may read before the clock lspq read first (the kernel's clock is coarser). */
const CLOCK_SLACK_MS = 50;

/**
 * The files a server made on disk, empty, while its command ran, before
 * sending the edit that fills them (typescript-language-server writes each
 * file "Move to a new file" creates): removed at once, so a dry run leaves
 * nothing, and planned as created, as the edit means them.
 */
function takeBackServerFiles(plans: EditPlan[], root: string, started: number): void {
  for (const plan of plans)
    for (const f of plan.files) {
      if (f.before !== '' || !f.path.startsWith(`${root}/`)) continue;
      let st: ReturnType<typeof statSync>;
      let made: string;
      try {
        // Through a link that was there before (a dangling one), the server made the file it leads to: that
        // is what is taken back; the link is the workspace's and stays.
        made = lstatSync(f.path).isSymbolicLink() ? realpathSync(f.path) : f.path;
        st = statSync(made);
      } catch {
        continue;
      }
      const born = st.birthtimeMs > 0 ? st.birthtimeMs : st.ctimeMs;
      if (!st.isFile() || st.size !== 0 || born < started - CLOCK_SLACK_MS) continue;
      rmSync(made, { force: true });
      f.before = null;
    }
}

/** An edit planned on the texts the plans before it leave (the server computed it after them). */
function planAfter(edit: WorkspaceEdit, session: Session, before: EditPlan[]): EditPlan {
  const latest = (path: string) => {
    for (const plan of [...before].reverse())
      for (const f of plan.files) if ((f.renamedTo ?? f.path) === path) return f;
    return undefined;
  };
  return planWorkspaceEdit(
    edit,
    (path) => {
      const f = latest(path);
      return f ? (f.after ?? undefined) : (session.docs.text(path) ?? readNow(path));
    },
    session.client.encoding,
    (path) => {
      const f = latest(path);
      return f ? (bytesOf(f).after ?? undefined) : readBytesNow(path);
    },
  );
}

/**
 * The file's other servers that offer code actions (ruff beside pyright),
 * one per family as diag asks them, each with the file open and ready.
 * With --server, none: the one named answers alone.
 */
async function othersFor(place: Place, req: ActionsQuery, ctx: HandlerContext, deadline: Deadline) {
  if (req.server) return [];
  const others: Session[] = [];
  const taken = new Set([familyOf(place.session.client.spec)]);
  for (const candidate of onePerFamily(candidatesFor(place.path, req, ctx), taken)) {
    const session = await acquire(ctx, candidate, req);
    if (!session.client.capabilities.codeActionProvider) continue;
    await session.docs.sync(place.path);
    await prepare(session, ctx, deadline);
    others.push(session);
  }
  return others;
}

/** The span as one server counts characters (each negotiates its own encoding). */
function rangeIn(session: Session, path: string, span: Span): Range {
  const lines = splitLines(session.docs.text(path) ?? '');
  const at = (line: number, column: number) => ({
    line: line - 1,
    character: toServerCharacter(lines[line - 1] ?? '', column - 1, session.client.encoding),
  });
  return { start: at(span.line, span.column), end: at(span.endLine, span.endColumn) };
}

/** One server's actions at the place, with the diagnostics there in the request's context. */
async function offeredBy(
  session: Session,
  place: Place,
  req: ActionsQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<(Command | CodeAction)[]> {
  const { path } = place;
  const range = session === place.session ? place.range : rangeIn(session, path, place.span);
  const found = await completeDiagnostics(session, [path], publishMarks(session, [path]), {
    deadline: () => deadline.remaining,
    budgetMs: deadline.totalMs,
    signal: ctx.signal,
  });
  const diagnostics: Diagnostic[] = (found.get(path) ?? []).filter((d) => overlaps(d.range, range));
  const context = {
    diagnostics,
    triggerKind: CodeActionTriggerKind.Invoked,
    ...(req.kinds ? { only: req.kinds } : {}),
  };
  await inFileStyle(session, path);
  const answer =
    (await session.client.request(
      Requests.codeAction,
      { textDocument: { uri: session.docs.uri(path) }, range, context },
      deadline.options(ctx),
    )) ?? [];
  return answer.filter((a) => matchesKind(kindOf(a), req.kinds));
}

type Numbered = { offer: { session: Session; action: Command | CodeAction }; item: CodeActionItem };

/** What the action listed is called, to say what changed: `2 kxqmtr 'Sort Imports'`. */
const named = (a: { index?: number; id: string; title: string }) =>
  `${a.index !== undefined ? `${a.index} ` : ''}${a.id} '${a.title}'`;

/** Nothing applied, as the offer changed: the actions offered now, by number and id, to choose again from. */
function notOffered(why: string, numbered: Numbered[]): LspqError {
  const now = numbered.map(({ item }) => item);
  const list = now.length
    ? `offered now: ${now.map(named).join(', ')}; apply one by its id (--apply ${now[0]?.id})`
    : 'none is offered now';
  return new LspqError(
    'action_not_offered',
    `${why}; nothing applied; ${list}`,
    undefined,
    now.map((a) => a.id),
  );
}

/**
 * The action --apply names, among those offered now: by id, the one with
 * that id; by number, the N-th, refused when the same flags listed
 * another there last (the server's offer changed between the two calls).
 */
function pickOf(
  apply: NonNullable<ActionsQuery['apply']>,
  numbered: Numbered[],
  before: { id: string; title: string }[] | undefined,
  at: string,
): Numbered {
  const count = `${numbered.length} listed`;
  if (apply === 'preferred') {
    const pick = numbered.find(({ item: a }) => a.preferred && !a.disabled);
    if (pick) return pick;
    throw usage(
      `no preferred code action at ${at} (${count}); list them with 'lspq actions' and pick one with --apply N or ID`,
    );
  }
  if (typeof apply === 'object') {
    const pick = numbered.find(({ item }) => item.id === apply.id);
    if (pick) return pick;
    throw notOffered(`no code action ${apply.id} is offered at ${at}`, numbered);
  }
  const pick = numbered[apply - 1];
  const listed = before?.[apply - 1];
  if (listed && pick?.item.title !== listed.title) {
    const now = pick ? `is now ${named({ id: pick.item.id, title: pick.item.title })}` : 'is offered no more';
    throw notOffered(`code action ${apply} at ${at} ${now}, not ${named(listed)} as listed`, numbered);
  }
  if (pick) return pick;
  throw usage(`there is no code action ${apply} at ${at} (${count}); list them with 'lspq actions'`);
}

export async function actions(req: ActionsQuery, ctx: HandlerContext): Promise<ActionsResult> {
  const deadline = deadlineFor(req);
  let place = await placeOf(req, ctx, deadline);
  let others = await othersFor(place, req, ctx, deadline);
  if (req.apply !== undefined || [place.session, ...others].some(keepsStyle)) {
    // Applying holds the servers alone: the action's edits and its command's edits are this question's;
    // so does asking a server that computes them with a style it holds for every question.
    await holdAlone([place.session, ...others], req, ctx, deadline);
    place = await placeOf(req, ctx, deadline);
    others = await othersFor(place, req, ctx, deadline);
  }
  const { session, path, shown } = place;
  const sessions = [session, ...others];
  return using(session, async () => {
    // Every server's actions, numbered on in the order the servers are asked (as diag merges diagnostics).
    const offered: { session: Session; action: Command | CodeAction }[] = [];
    for (const s of sessions)
      for (const action of await using(s, () => offeredBy(s, place, req, ctx, deadline)))
        offered.push({ session: s, action });
    // A server may offer every refactor it knows, most disabled here: those only with --all.
    const shownOnes = req.all ? offered : offered.filter(({ action: a }) => isCommand(a) || !a.disabled);
    // Numbered as listed, so --apply N takes the N-th line the same flags list (no gaps where disabled ones hide).
    const numbered = shownOnes.map((offer, i) => {
      const { session: s, action: a } = offer;
      const item: CodeActionItem = {
        index: i + 1,
        id: actionId({
          server: s.client.spec.id,
          title: a.title,
          kind: kindOf(a),
          edit: isCommand(a) ? undefined : a.edit,
          root: pathToUri(s.client.root),
        }),
        title: a.title,
        kind: kindOf(a),
        preferred: !isCommand(a) && a.isPreferred === true,
        edits: isCommand(a) ? [] : touched(a.edit, shown),
        server: s.client.spec.id,
        ...(!isCommand(a) && a.disabled ? { disabled: a.disabled.reason } : {}),
      };
      return { offer, item };
    });
    const listed = numbered.map(({ item }) => item);
    // What the same flags listed here last: --apply N applies the N-th only while it is still that one.
    // The place as written (FILE:LINE stays the same place when its line's text changes), with the flags that choose.
    const key = JSON.stringify([req.server ?? '', req.place, req.kinds ?? [], req.all === true]);
    const before = ctx.pool.caches.offers.get(key);
    ctx.pool.caches.offers.set(
      key,
      listed.map(({ id, title }) => ({ id, title })),
    );
    let applied: ActionsResult['applied'] = null;
    if (req.apply !== undefined) {
      const at = `${displayPath(shown(path), req.cwd)}:${place.span.line}`;
      const pick = pickOf(req.apply, numbered, before, at);
      const chosen = pick.item;
      if (chosen.disabled)
        throw new LspqError(
          'usage',
          `code action ${chosen.index} ('${chosen.title}') cannot be applied: ${chosen.disabled}`,
        );
      const { session: by, action } = pick.offer;
      const { plan, urls } = await run(by, action, `applied ${chosen.index}: ${chosen.title}`, req, ctx, deadline);
      const files: FileEdit[] = fileEdits(plan, shown);
      const where = { root: by.client.root, allowOutside: req.allowOutside, confine: req.confine };
      const verification = !req.verify
        ? undefined
        : req.write
          ? await verifyWritten(plan, sessions, where, req, ctx, deadline)
          : await verifyPlanned(plan, req, ctx, deadline);
      applied = {
        index: chosen.index,
        id: chosen.id,
        title: chosen.title,
        server: chosen.server,
        files,
        patchTop: patchTop(
          files.map((f) => f.path),
          req.cwd,
        ),
        written: req.write,
        urls,
        ...(verification ? { verification } : {}),
      };
    }
    return {
      path: shown(path),
      span: place.span,
      server: session.client.spec.id,
      root: session.client.root,
      servers: answeredBy(sessions),
      actions: listed.slice(0, req.limit),
      total: listed.length,
      truncated: listed.length > req.limit,
      hidden: offered.length - shownOnes.length,
      applied,
    };
  });
}
