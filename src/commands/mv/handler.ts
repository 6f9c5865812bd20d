/**
 * mv: moves a file or a folder and updates what imports it. The servers of
 * the moved files that can (workspace/willRenameFiles) say what else must
 * change; those edits and the move are written all or nothing by the one
 * writer, then the servers are told (workspace/didRenameFiles).
 */
import { Requests } from '../../lsp/requests';
import { isWithin as under } from '../../common/paths';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { DidRenameFilesNotification, type WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspqError, usage } from '../../common/errors';
import type { EditPlan, Move } from '../../lsp/workspace-edit';
import { pairedMove } from '../../engine/stub-sides';
import type { Session } from '../../lsp/manager';
import { pathToUri } from '../../lsp/uri';
import { displayPath } from '../../common/paths';
import type { MvResult } from './question';
import { checkPlan, writePlan } from '../../engine/apply-edit';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { acquire, candidatesFor, configuredFor, holdAlone, prepare, using } from '../../engine/sessions';
import { languageIdFor } from '../../lsp/servers/registry';
import { onePerFamily } from '../../engine/sessions';
import { fileEdits, journalFor, patchTop, planFor, planSize } from '../../engine/edit-plans';
import { neverSources } from '../../project/folders';
import { loadProjects } from '../../engine/projects';
import { verifyPlanned, verifyWritten } from '../../engine/verify';
import { answeredBy } from '../../answers/caller';
import type { MvQuery } from './question';

/** Where `path` is after the moves. */
const moved = (path: string, moves: Move[]) => {
  const m = moves.find((m) => under(path, m.from));
  return m ? join(m.to, relative(m.from, path)) : path;
};

/** The files a move carries: the file, or every file under the folder (build output and dot-folders left out of the asking). */
function carried(from: string): string[] {
  if (!statSync(from).isDirectory()) return [from];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'target') continue;
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.isFile()) out.push(join(dir, e.name));
      if (out.length >= 2_000) return;
    }
  };
  walk(from);
  return out;
}

/**
 * Each file a move takes, where it is and where it goes, for a dry run's
 * patch: the file (or link), or every file and link under the folder but
 * those in folders that are never sources (node_modules, caches), which
 * no walk enters; they move with the folder.
 */
function movedFiles(from: string, to: string): { from: string; to: string }[] {
  if (!lstatSync(from).isDirectory()) return [{ from, to }];
  const out: { from: string; to: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (!e.isDirectory()) out.push({ from: path, to: moved(path, [{ from, to }]) });
      else if (!neverSources(path, e.name)) walk(path);
    }
  };
  walk(from);
  return out.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/** Whether a server's willRename filters take this file or folder. */
function wants(session: Session, path: string, folder: boolean): boolean {
  const options = session.client.capabilities.workspace?.fileOperations?.willRename;
  if (!options) return false;
  return options.filters.some((f) => {
    if (f.pattern.matches && f.pattern.matches !== (folder ? 'folder' : 'file')) return false;
    const glob = new Bun.Glob(f.pattern.options?.ignoreCase ? f.pattern.glob.toLowerCase() : f.pattern.glob);
    return glob.match(f.pattern.options?.ignoreCase ? path.toLowerCase() : path);
  });
}

/** Languages whose files are data, not code another file imports by a path a server would update. */
const DATA_LANGUAGES = new Set([
  'json',
  'jsonc',
  'yaml',
  'toml',
  'markdown',
  'dockerfile',
  'css',
  'scss',
  'less',
  'html',
]);

const extensionOf = (file: string) => basename(file).replace(/^[^.]*/, '');

/** A moved file's language, where it is code (its importers are worth updating); undefined for data and unknown files. */
function codeLanguage(file: string, req: MvQuery, ctx: HandlerContext): string | undefined {
  let specs: ReturnType<typeof configuredFor>;
  try {
    specs = configuredFor(file, req, ctx.trust);
  } catch {
    return undefined;
  }
  const ids = specs.map((s) => languageIdFor(s, file)).filter((l): l is string => l !== undefined);
  return ids.find((l) => !DATA_LANGUAGES.has(l));
}

/** One server per family for the moved files' languages, started, with a moved file open (not waited for: a refusal needs only its capabilities). */
async function serversFor(files: string[], req: MvQuery, ctx: HandlerContext) {
  const sessions: { session: Session; file: string }[] = [];
  const families = new Set<string>();
  const extensions = new Set<string>();
  for (const file of files) {
    const ext = extensionOf(file);
    if (extensions.has(ext)) continue;
    extensions.add(ext);
    let candidates: ReturnType<typeof candidatesFor> = [];
    try {
      candidates = candidatesFor(file, req, ctx);
    } catch (err) {
      // A moved folder may hold files no server knows (images, data): nothing to ask about them. A code
      // file whose server is missing is judged below, with the files no server can update.
      if (err instanceof LspqError && (err.code === 'no_server' || err.code === 'server_not_installed')) continue;
      throw err;
    }
    for (const c of onePerFamily(candidates, families)) {
      const session = await acquire(ctx, c, req);
      // Open in the server, so it knows the project the file belongs to (tsserver).
      await session.docs.sync(file);
      sessions.push({ session, file });
    }
  }
  return sessions;
}

/** The new path, as mv reads it: into a folder that exists, else the path itself; never onto something. */
function destination(from: string, to: string, cwd: string): string {
  const into = existsSync(to) && statSync(to).isDirectory() && !under(to, from) ? join(to, basename(from)) : to;
  if (existsSync(into) || isLink(into))
    throw usage(`${displayPath(into, cwd)} exists; nothing was moved (name a path that does not exist)`);
  if (under(into, from)) throw usage(`cannot move ${displayPath(from, cwd)} into itself; nothing was moved`);
  return into;
}

const isLink = (path: string) => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/**
 * A move is all or nothing across languages: every moved code file must be
 * one an updating server takes (its language's server installed and able
 * to update imports), else nothing is moved and the files are named.
 */
function refuseUncovered(
  files: string[],
  found: { session: Session; file: string }[],
  asks: (session: Session) => boolean,
  req: MvQuery,
  ctx: HandlerContext,
): void {
  const byLanguage = new Map<string, [string, ...string[]]>();
  for (const file of files) {
    const language = codeLanguage(file, req, ctx);
    if (language) byLanguage.set(language, [...(byLanguage.get(language) ?? []), file]);
  }
  const uncovered: string[] = [];
  for (const [language, list] of byLanguage) {
    const serving = found.filter((f) => languageIdFor(f.session.client.spec, list[0]) === language);
    if (serving.some((f) => asks(f.session))) continue;
    const who = serving.length
      ? `${serving.map((f) => f.session.client.spec.id).join(', ')} cannot update what imports them`
      : 'no installed server for them';
    const shown = list.slice(0, 3).map((f) => displayPath(f, req.cwd));
    uncovered.push(`${shown.join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''} (${language}: ${who})`);
  }
  if (uncovered.length > 0)
    throw new LspqError(
      'unsupported',
      `what imports ${uncovered.join('; ')} would not be updated; nothing was moved (--no-update moves it alone; 'lspq servers --for FILE' lists what each server can answer)`,
    );
}

export async function mv(req: MvQuery, ctx: HandlerContext): Promise<MvResult> {
  const deadline = deadlineFor(req);
  if (!existsSync(req.from))
    throw new LspqError('file_not_found', `${displayPath(req.from, req.cwd)}: no such file or folder`);
  const from = req.from;
  const to = destination(from, req.to, req.cwd);
  const folder = statSync(from).isDirectory();
  // A Python module and its stub move as one (a folder carries both).
  const paired = folder ? undefined : pairedMove(from, to, req.cwd);
  const moves: Move[] = [{ from, to }, ...(paired ? [paired] : [])];
  const files = [...carried(from), ...(paired ? [paired.from] : [])];
  const found = await serversFor(files, req, ctx);
  // A folder is asked about as one move, also of a server whose filters name only files (TypeScript 7
  // computes it): asked file by file, each answer assumes the other files stay, and they contradict.
  const asks = (session: Session) =>
    wants(session, from, folder) || (folder && files.some((f) => wants(session, f, false)));
  const pairs = moves.map((m) => ({ oldUri: pathToUri(m.from), newUri: pathToUri(m.to) }));
  const updating = req.update ? found.filter(({ session }) => asks(session)) : [];
  if (req.update && updating.length === 0) {
    const asked = found.map((f) => f.session.client.spec.id);
    throw new LspqError(
      'unsupported',
      `${asked.length ? `${asked.join(', ')} cannot` : 'no installed server can'} update what imports ${displayPath(from, req.cwd)}; nothing was moved (--no-update moves it alone; 'lspq servers --for FILE' lists what each server can answer)`,
    );
  }
  if (req.update) refuseUncovered(files, found, asks, req, ctx);
  const sessions = updating.map((f) => f.session);
  // Only the servers asked to update wait for their project: a refusal, or a server beside them, is not held up by one loading.
  for (const session of sessions) await prepare(session, ctx, deadline);
  if (req.write) await holdAlone(sessions, req, ctx, deadline);
  const root = sessions[0]?.client.root ?? found[0]?.session.client.root ?? req.root ?? req.cwd;
  const plan: EditPlan = { files: [], moves };
  for (const session of sessions) {
    // Every project of the workspace updates what it imports from the moved files; with none, the files
    // that name the moved one (its importers write its name) are opened.
    await loadProjects(session, ctx, deadline, { name: basename(from).replace(/\.[^.]*$/, '') });
    const edit: WorkspaceEdit | null = await using(session, () =>
      session.client.request(Requests.willRenameFiles, { files: pairs }, deadline.options(ctx)),
    );
    if (!edit) continue;
    for (const f of (await planFor(edit, session)).files) {
      if (plan.files.some((p) => p.path === moved(f.path, moves)))
        throw new LspqError('server_failed', `two servers edit ${f.path} for this move; nothing was moved`);
      plan.files.push({ ...f, path: moved(f.path, moves) });
    }
  }
  let verification: MvResult['verification'];
  if (req.write) {
    const shown = moves.map((m) => `${displayPath(m.from, req.cwd)} -> ${displayPath(m.to, req.cwd)}`).join(', ');
    const summary = `moved ${shown}; ${planSize(plan)}`;
    await writePlan(plan, {
      root,
      allowOutside: req.allowOutside,
      confine: req.confine,
      journal: journalFor(ctx, req, summary),
    });
    for (const session of found.map((f) => f.session)) {
      // Closed at the old path (gone from disk), and told, so its project follows the move.
      await session.docs.refreshAll();
      if (session.client.capabilities.workspace?.fileOperations?.didRename)
        await session.client.sendNotification(DidRenameFilesNotification.type, { files: pairs });
    }
    if (req.verify) {
      const held = found.map((f) => f.session);
      verification = await verifyWritten(
        plan,
        held,
        { root, allowOutside: req.allowOutside, confine: req.confine },
        req,
        ctx,
        deadline,
      );
    }
  } else {
    // The outside check, and a destination that appeared, answered by a dry run as by the move.
    checkPlan(plan, { root, allowOutside: req.allowOutside, confine: req.confine });
    if (req.verify) verification = await verifyPlanned(plan, req, ctx, deadline);
  }
  return {
    moves,
    files: fileEdits(plan),
    ...(req.write ? {} : { carried: moves.flatMap((m) => movedFiles(m.from, m.to)) }),
    patchTop: patchTop([from], req.cwd),
    applied: req.write,
    servers: answeredBy(sessions),
    ...(verification ? { verification } : {}),
  };
}
