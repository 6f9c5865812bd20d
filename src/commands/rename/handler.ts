/**
 * rename: prepareRename first where the server offers it (a place that
 * cannot be renamed is bad input, exit 2, with the server's reason), then
 * the workspace edit across every file, shown (--dry-run) or written all or
 * nothing. A rename that writes holds its server alone from the request to
 * the re-sync, so no other question sees the files half-renamed.
 */
import { Requests } from '../../lsp/requests';
import { isIdentifierChar as isWord } from '../../common/identifiers';
import type { PrepareRenameResult, TextDocumentPositionParams, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspqError, messageOf } from '../../common/errors';
import type { RenameResult } from './question';
import { displayPath } from '../../common/paths';
import { type Deadline, deadlineFor, type HandlerContext } from '../../engine/context';
import { buildLabel, envFor, type OtherBuilds, otherBuilds } from '../../engine/go-builds';
import type { Session } from '../../lsp/manager';
import { projectFiles } from '../../lsp/project-files';
import { type EditPlan, joinEdits, pathsOf } from '../../lsp/workspace-edit';
import { acrossStubs } from '../../engine/stub-sides';
import type { Place } from '../../engine/symbol-declarations';
import { toLocation } from '../../lsp/convert';
import { holdAlone, textsOf, using } from '../../engine/sessions';
import {
  commit,
  fileEdits,
  inFileStyle,
  journalFor,
  keepsStyle,
  patchTop,
  planFor,
  planSize,
} from '../../engine/edit-plans';
import { verifyPlanned, verifyWritten } from '../../engine/verify';
import { nameAt } from '../locations/other-builds';
import { loadProjects } from '../../engine/projects';
import { type OpenTarget, openTarget } from '../../engine/open-target';
import { unrenamed } from '../../engine/unrenamed';
import type { RenameQuery } from './question';
import { nextTurn } from '../../common/turns';

/** The name at a 1-based line and column of a text: what a rename target points at. */
function wordAt(text: string, line: number, column: number): string | undefined {
  const chars = Array.from(text.split('\n')[line - 1] ?? '');
  let start = column - 1;
  let end = column - 1;
  while (start > 0 && isWord(chars[start - 1])) start--;
  while (isWord(chars[end])) end++;
  return end > start ? chars.slice(start, end).join('') : undefined;
}

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

/**
 * The server's edit for the rename at an opened target, as a plan; a place
 * that cannot be renamed is bad input. A Python symbol declared in a stub
 * and in its implementation is renamed at each (stub-sides.ts), the edits
 * joined; a side that cannot be renamed, or edits that disagree, write nothing.
 */
async function renameEdit(open: OpenTarget, req: RenameQuery, ctx: HandlerContext, deadline: Deadline) {
  const { session, target, uri, position } = open;
  const client = session.client;
  // Every project of the workspace renames its uses; with none, the files that name it are opened.
  const name = nameAt(target.path, target.line, target.column, target.symbol);
  await loadProjects(session, ctx, deadline, name ? { name } : undefined);
  const at = `${displayPath(target.path, req.cwd)}:${target.line}:${target.column}`;
  const provider = client.capabilities.renameProvider;
  if (typeof provider === 'object' && provider.prepareProvider) {
    const prepared: PrepareRenameResult | null = await client
      .request(Requests.prepareRename, { textDocument: { uri }, position }, deadline.options(ctx))
      .catch(refused(at, 'renamed'));
    if (!prepared) {
      throw new LspqError(
        'cannot_rename',
        `${at} cannot be renamed: ${client.spec.id} finds no symbol there; point at the name to rename`,
      );
    }
  }
  await inFileStyle(session, open.path);
  const options = deadline.options(ctx);
  const renameAt = async (params: TextDocumentPositionParams, side?: Place): Promise<WorkspaceEdit> => {
    // The other side's refusal is no fault of the target: the rename cannot be whole, so nothing is written.
    const where = side && `${at} is declared also at ${shownPlace(side, req.cwd, session, ctx)}`;
    const edit: WorkspaceEdit | null = await client
      .request(Requests.rename, { ...params, newName: req.newName }, options)
      .catch((err: unknown) => {
        if (where)
          throw new LspqError(
            'incomplete',
            `${where}, which ${client.spec.id} cannot rename: ${messageOf(err)}; nothing was written`,
          );
        return refused<WorkspaceEdit | null>(at, `renamed to '${req.newName}'`)(err);
      });
    if (edit) return edit;
    if (where)
      throw new LspqError('incomplete', `${where}, for which ${client.spec.id} returned no edit; nothing was written`);
    throw new LspqError('cannot_rename', `${at} cannot be renamed: ${client.spec.id} returned no edit`);
  };
  const { answers } = await acrossStubs(
    session,
    { textDocument: { uri }, position },
    renameAt,
    pathsOf,
    ctx,
    deadline,
    options,
  );
  const [own, ...others] = answers;
  if (own && others.length === 0) return planFor(own, session);
  const joined = joinEdits(answers);
  if (joined.conflict)
    throw new LspqError(
      'incomplete',
      `${client.spec.id}'s renames at the stub and at the implementation change ${displayPath(joined.conflict, req.cwd)} differently; nothing was written`,
    );
  return planFor(joined.edit, session);
}

/** A server's place as the user reads it: path:line:column, in code points. */
function shownPlace(place: Place, cwd: string, session: Session, ctx: HandlerContext): string {
  const l = toLocation(place.uri, place.range, textsOf(session, ctx), session.client.encoding);
  return `${displayPath(l.path, cwd)}:${l.line}:${l.column}`;
}

/**
 * Go: the same rename under each other build configuration whose files
 * write the old name (go-builds.ts), merged into one plan; files none of
 * them compiles make the rename refuse, unless --this-build-only.
 */
async function otherBuildEdits(
  first: { plan: EditPlan; open: OpenTarget; oldName: string | undefined },
  searching: Promise<OtherBuilds> | undefined,
  req: RenameQuery,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ plan: EditPlan; sessions: Session[]; builds: string[] }> {
  const client = first.open.session.client;
  const none = { plan: first.plan, sessions: [], builds: [] };
  if (!searching) return none;
  const others = await searching;
  const oldName = first.oldName;
  const unsearched = [...others.unsearched];
  let plan = first.plan;
  const sessions: Session[] = [];
  const builds: string[] = [];
  for (const { build, files } of others.builds) {
    try {
      const under = { ...req, env: envFor(req.env, build) };
      // An extra server: it never costs another project its warm servers (manager.ts).
      const open = await openTarget(
        req.target,
        under,
        { ...ctx, extraServers: true },
        deadline,
        'renameProvider',
        'rename',
      );
      if (req.write) await holdAlone([open.session], under, ctx, deadline);
      const theirs = await using(open.session, () => renameEdit(open, under, ctx, deadline));
      plan = mergeBuildPlans(plan, theirs);
      sessions.push(open.session);
      builds.push(buildLabel(build));
    } catch (err) {
      if (err instanceof LspqError && err.code === 'incomplete') throw err;
      ctx.log(`${client.spec.id} under ${buildLabel(build)}: ${messageOf(err)}`);
      unsearched.push(...files);
    }
  }
  if (unsearched.length > 0) {
    const named = unsearched.map((p) => displayPath(p, req.cwd)).join(', ');
    throw new LspqError(
      'incomplete',
      `'${oldName}' is written in ${named}, which no build configuration lspq tried compiles, so the rename cannot reach it; nothing was written (--this-build-only renames what this build sees)`,
    );
  }
  return { plan, sessions, builds };
}

/** Two builds' plans as one: a file both change must come out the same, else the builds disagree and nothing is written. */
function mergeBuildPlans(a: EditPlan, b: EditPlan): EditPlan {
  const files = [...a.files];
  for (const f of b.files) {
    const same = files.find((g) => g.path === f.path);
    if (!same) files.push(f);
    else if (same.after !== f.after || same.renamedTo !== f.renamedTo)
      throw new LspqError(
        'incomplete',
        `the builds disagree on how to rename ${f.path}; nothing was written (--this-build-only renames what this build sees)`,
      );
  }
  return { ...a, files };
}

export async function rename(req: RenameQuery, ctx: HandlerContext): Promise<RenameResult> {
  const deadline = deadlineFor(req);
  let open = await openTarget(req.target, req, ctx, deadline, 'renameProvider', 'rename');
  // Written, or computed with a style the server holds for every question: this question's alone.
  if (req.write || keepsStyle(open.session)) {
    await holdAlone([open.session], req, ctx, deadline);
    // Found again under the lease: the file may have changed while this question waited for it.
    open = await openTarget(req.target, req, ctx, deadline, 'renameProvider', 'rename');
  }
  const { session, target, shown } = open;
  return using(session, async () => {
    const client = session.client;
    // The name as it is before the edit is written: after it, the target's place holds the new one.
    const oldName =
      target.symbol?.split('.').pop() ?? wordAt(session.docs.text(open.path) ?? '', target.line, target.column);
    // Go's other builds searched while the server computes the edit: the edit is written the sooner after.
    const walk = () => projectFiles(client.spec, client.root, 20_000);
    const searching =
      oldName && client.spec.buildConfigurations === 'go' && !req.thisBuildOnly
        ? otherBuilds(client.root, oldName, req.env, walk, ctx.disk)
        : undefined;
    searching?.catch(() => {}); // awaited below; a rename the server refuses leaves it unread
    const own = await renameEdit(open, req, ctx, deadline);
    const { plan, sessions, builds } = await otherBuildEdits(
      { plan: own, open, oldName },
      searching,
      req,
      ctx,
      deadline,
    );
    const where = { root: client.root, allowOutside: req.allowOutside, confine: req.confine };
    if (req.write)
      await commit(plan, [session, ...sessions], {
        ...where,
        journal: journalFor(ctx, req, `renamed to '${req.newName}': ${planSize(plan)}`),
      });
    const verification = !req.verify
      ? undefined
      : req.write
        ? await verifyWritten(plan, [session], where, req, ctx, deadline)
        : await verifyPlanned(plan, req, ctx, deadline);
    const touched = new Set(plan.files.flatMap((f) => [f.path, ...(f.renamedTo ? [f.renamedTo] : [])]));
    // Planned, then searched for leftovers, then shown: other questions run between (a 2,000-file edit).
    await nextTurn();
    const left = oldName ? await unrenamed(client.spec, client.root, oldName, touched) : [];
    await nextTurn();
    const files = fileEdits(plan, shown);
    return {
      target,
      server: client.spec.id,
      root: client.root,
      newName: req.newName,
      files,
      patchTop: patchTop(
        files.map((f) => f.path),
        req.cwd,
      ),
      applied: req.write,
      unrenamed: left.map(({ leftover: _, ...l }) => ({ ...l, path: shown(l.path) })),
      leftovers: [...new Set(left.map((l) => l.leftover))],
      ...(oldName ? { oldName } : {}),
      ...(builds.length ? { builds } : {}),
      ...(verification ? { verification } : {}),
    };
  });
}
