/**
 * Collecting diagnostics, for diag and rename --verify: complete diagnostics for files, merged across the servers of each
 * file (one per family: pyright and ruff both answer, pyright and
 * basedpyright are alternatives), de-duplicated and labelled by source.
 */
import { Requests } from '../lsp/requests';
import { existsSync } from 'node:fs';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import { TextSource, toSpan } from '../lsp/convert';
import { completeDiagnostics, publishMarks, strategyFor } from '../lsp/complete-diagnostics';
import { MAX_OPEN_DOCUMENTS } from '../lsp/documents';
import type { Session } from '../lsp/manager';
import { isSource, projectFiles } from '../lsp/project-files';
import { uriToPath } from '../lsp/uri';
import { SEVERITIES, type Diagnostic, type Severity, type Unchecked, type Withheld } from '../answers/diagnostics';
import { byPlace } from '../answers/places';
import type { Deadline, HandlerContext } from './context';
import { dirname, join, relative } from 'node:path';
import { loadServers } from '../lsp/servers/config';
import { findMarkedRoot } from '../lsp/servers/locate';
import { isText, unhandable } from './files';
import {
  acquire,
  type Candidate,
  candidatesFor,
  configuredFor,
  notInstalled,
  onePerFamily,
  type PassedOver,
  prepare,
  using,
  textsOf,
} from './sessions';
import { withContext } from './excerpts';
import { constrained } from './go-constraints';
import { workspaceSessions } from './symbol-search';
import type { DiagQuery } from '../answers/diagnostics';
import { readsWithPlugins } from '../lsp/servers/ts-plugins';
import { turnEvery } from '../common/turns';
import { inNeverSources } from '../project/folders';
import { projectSet } from './tsconfig-files';

export type DiagRequest = DiagQuery;

export const BATCH = Math.floor(MAX_OPEN_DOCUMENTS / 2);
/** Files whose servers are found between turns of the event loop (diag --all). */
const FILES_PER_TURN = 8;

export interface Collected {
  diagnostics: Diagnostic[];
  incomplete: Set<string>;
  /** Files that could not be handed a server, with why. */
  skipped: Map<string, string>;
  /** Files whose language lspq knows a server for, none of them able to run. */
  unchecked: Map<string, Unchecked>;
  /** With --all where a tsconfig's files were read: the sources it leaves out (with the tsconfig), and those under none. */
  tsconfig?: { leftOut: Map<string, string>; loose: Set<string> };
  files: Set<string>;
  /** -B/-A/-C, for each diagnostic's context. */
  around: { before: number; after: number } | undefined;
}

/**
 * What a diagnosis left out: the servers asked that ran in their untrusted
 * mode and so left diagnostics out (rust-analyzer: cargo check's), and the
 * checkers the project configures that could not run at all (ctx.withheld).
 */
export function withheldBy(sessions: Session[], ctx: HandlerContext): Withheld[] {
  const restricted = sessions.flatMap((s) => {
    const lost = s.client.spec.restricted?.loses;
    return lost ? [{ server: s.client.spec.id, missing: lost.diagnostics, fix: 'lspq trust lets it run' }] : [];
  });
  const seen = new Set(restricted.map((w) => w.server));
  return [...restricted, ...[...ctx.withheld.values()].filter((w) => !seen.has(w.server))];
}

/** Nothing collected yet; `around` is -B/-A/-C. */
export function collected(around: Collected['around']): Collected {
  return { diagnostics: [], incomplete: new Set(), skipped: new Map(), unchecked: new Map(), files: new Set(), around };
}

function severityOf(d: LspDiagnostic): Severity {
  return SEVERITIES[(d.severity ?? 1) - 1] ?? 'error';
}

const before = (a: LspDiagnostic, b: LspDiagnostic) =>
  a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;

/**
 * One problem a server reports at several places is one diagnostic, at its first, as the compiler counts it:
 * rust-analyzer gives each primary span of a rustc warning a diagnostic of its own, all with the same `data`.
 */
export function onePerProblem(items: readonly LspDiagnostic[]): LspDiagnostic[] {
  const seen = new Set<string>();
  return [...items].sort(before).filter((d) => {
    if (d.data === undefined || d.data === null) return true;
    const key = JSON.stringify([d.severity, d.source, d.code, d.message, d.data]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function convert(session: Session, path: string, items: LspDiagnostic[], texts: TextSource): Diagnostic[] {
  return onePerProblem(items).map((d) => ({
    path,
    ...toSpan(path, d.range, texts, session.client.encoding),
    severity: severityOf(d),
    message: typeof d.message === 'string' ? d.message : d.message.value,
    source: d.source ?? session.client.spec.id,
    ...(d.code !== undefined ? { code: d.code } : {}),
  }));
}

/** How a batch is asked: `staged` texts laid over the disk's; `ownOnly` without checks beside the server's (cargo check). */
export interface DiagnoseHow {
  staged?: Map<string, string>;
  ownOnly?: boolean;
}

/** The open Go files another build compiles (gopls diagnoses each in that build's view): every view is brought up to date. */
function otherViews(session: Session): string[] | undefined {
  if (strategyFor(session) !== 'gopls-barrier') return undefined;
  return session.docs.paths.filter((p) => p.endsWith('.go') && constrained(p, session.docs.text(p) ?? ''));
}

/** Only a server with a check beside its own diagnostics (cargo check) answers otherwise when asked for its own alone. */
const diagnosisKind = (session: Session, ownOnly: boolean | undefined) =>
  strategyFor(session) === 'pull-and-check' && !ownOnly ? 'with-check' : 'own';

/**
 * What the server already said of `paths` in the state `tree` lays over
 * the disk (its own files of it), where that still holds (Documents:
 * nothing on disk changed since but what the tree puts back): added to
 * `out`; the paths left to ask are returned. Asked after the server heard
 * of the disk's changes (prepare).
 */
export function rememberedDiagnoses(
  session: Session,
  paths: string[],
  tree: ReadonlyMap<string, string | null>,
  ownOnly: boolean | undefined,
  ctx: HandlerContext,
  out: Collected,
): string[] {
  const kind = diagnosisKind(session, ownOnly);
  const texts = new TextSource((p) => {
    const laid = tree.get(p);
    return typeof laid === 'string' ? laid : session.docs.text(p);
  }, ctx.pool.caches.lines);
  return paths.filter((path) => {
    const items = session.docs.diagnosesUnder(path, kind, tree);
    if (!items) return true;
    out.diagnostics.push(...withContext(convert(session, path, items, texts), texts, out.around));
    return false;
  });
}

/** Opens a batch, waits for its complete diagnostics, closes what was opened only for this. */
export async function diagnoseBatch(
  session: Session,
  paths: string[],
  keepOpen: boolean,
  ctx: HandlerContext,
  deadline: Deadline,
  out: Collected,
  how: DiagnoseHow = {},
): Promise<void> {
  const staged = how.staged;
  await using(session, async () => {
    const openedHere = paths.filter((p) => !session.docs.isOpen(p));
    try {
      const marks = publishMarks(session, paths);
      for (const p of paths) {
        const text = staged?.get(p);
        if (text !== undefined) await session.docs.overlay(p, text);
        else await session.docs.sync(p);
      }
      await prepare(session, ctx, deadline);
      // Read after prepare: the disk changes the server was told of by then count.
      const disk = session.docs.diskState();
      const found = await completeDiagnostics(session, paths, marks, {
        deadline: () => deadline.remaining,
        budgetMs: deadline.totalMs,
        signal: ctx.signal,
        ownOnly: how.ownOnly,
        views: otherViews(session),
      });
      if (disk !== undefined)
        for (const p of paths) {
          const items = found.get(p);
          if (items) session.docs.rememberDiskDiagnoses(p, diagnosisKind(session, how.ownOnly), items, disk);
        }
      session.docs.diagnosedNow();
      const texts = textsOf(session, ctx);
      // Context while the servers still hold what they checked (the staged text with --staged).
      for (const [path, items] of found) {
        out.diagnostics.push(...withContext(convert(session, path, items, texts), texts, out.around));
      }
    } catch (err) {
      if (!(err instanceof LspqError) || err.code !== 'timeout' || ctx.signal?.aborted) throw err;
      ctx.log(`${session.client.spec.id}: diagnostics incomplete: ${err.message}`);
      for (const p of paths) out.incomplete.add(p);
    } finally {
      // The staged content was for this answer only: the disk's text goes back before the lease is given up.
      if (staged) for (const p of paths) await session.docs.endOverlay(p);
      // Files named on the command line stay open (the next diag is faster); --all's batches do not.
      if (!keepOpen) for (const p of openedHere) await session.docs.close(p);
    }
  });
}

/**
 * Every file of the server's languages under its root: git's view (it
 * honours .gitignore), asked under the git policy; outside a repository, a walk.
 */
export async function workspaceFilesFor(session: Session, env: Record<string, string>): Promise<string[]> {
  const spec = session.client.spec;
  const root = session.client.root;
  const { GitRepo } = require('../git/repo') as typeof import('../git/repo');
  const repo = await GitRepo.open(root, env);
  // git lists what it does not ignore, a `.venv` with no .gitignore entry included: never sources all the same.
  const never = repo ? inNeverSources(repo.top) : () => false;
  const listed = repo ? (await repo.lsFiles()).filter((p) => p.startsWith(`${root}/`) && !never(p)) : [];
  // Nothing listed: not a repository, or a project an enclosing repository ignores.
  const files = listed.length > 0 ? listed : await projectFiles(spec, root, 20_000);
  // The project's sources: not what a build made of them (declaration files, JavaScript beside the declarations
  // its build wrote). Where no TypeScript is among them, the JavaScript is the sources (a package that keeps them
  // in a dist/ with declarations beside, as svelte-french-toast's).
  const typed = files.some((p) => /\.[cm]?tsx?$/.test(p) && isSource(spec, p, () => false));
  const declared = typed ? existsSync : () => false;
  return files.filter(
    (p) => isSource(spec, p, declared) && readsWithPlugins(spec, p) && !p.includes('/node_modules/') && existsSync(p),
  );
}

/** What a commit would hold: the staged files to check, and the tree the servers are shown for it. */
export interface StagedSnapshot {
  files: string[];
  /**
   * Laid over the disk's: the index's text of every file whose work-tree
   * text is not the index's, staged or not (a commit holds the index, and
   * an unstaged error in a file beside a staged one is no error of the
   * commit); staged deletions as gone. Untracked files stay as the disk
   * has them: shown as gone, an untracked go.mod or package.json would
   * take the project's servers apart.
   */
  tree: Map<string, string | null>;
  /** Files git does not track: no file of the commit, left out of `--staged --all`. */
  untracked: Set<string>;
  /** Staged files no server is shown: not text. */
  skipped: Map<string, string>;
}

/** diag --staged: one look at git's index and status; the work tree is never written. */
export async function stagedSnapshot(req: DiagRequest): Promise<StagedSnapshot> {
  const { GitRepo } = require('../git/repo') as typeof import('../git/repo');
  const repo = await GitRepo.open(req.cwd, req.env);
  if (!repo) throw new LspqError('usage', '--staged needs a git repository; run it inside one');
  const status = await repo.status();
  const at = (p: string) => `${repo.top}/${p}`;
  const tree = new Map<string, string | null>();
  const skipped = new Map<string, string>();
  const files: string[] = [];
  for (const e of status.staged) {
    if (e.oldPath !== undefined) tree.set(at(e.oldPath), null);
    if (e.status === 'deleted') {
      tree.set(at(e.path), null);
      continue;
    }
    const text = await repo.staged(at(e.path));
    if (!isText(text)) {
      skipped.set(at(e.path), 'not a text file');
      continue;
    }
    tree.set(at(e.path), text);
    files.push(at(e.path));
  }
  for (const e of status.unstaged) {
    if (tree.has(at(e.path))) continue;
    const text = await repo.staged(at(e.path));
    if (isText(text)) tree.set(at(e.path), text);
  }
  return { files: files.sort(), tree, untracked: new Set(status.untracked.map(at)), skipped };
}

async function workspacePull(
  session: Session,
  deadline: Deadline,
  ctx: HandlerContext,
  out: Collected,
): Promise<boolean> {
  const provider = session.client.capabilities.diagnosticProvider;
  if (!provider?.workspaceDiagnostics) return false;
  const report = await session.client.request(
    Requests.workspaceDiagnostic,
    { previousResultIds: [] },
    deadline.options(ctx),
  );
  const texts = new TextSource(undefined, ctx.pool.caches.lines);
  for (const item of report.items) {
    const path = uriToPath(item.uri);
    if (!path || item.kind !== 'full') continue;
    out.files.add(path);
    out.diagnostics.push(...withContext(convert(session, path, item.items, texts), texts, out.around));
  }
  return true;
}

/**
 * The servers that diagnose a file, one per family (pyright and ruff both,
 * pyright or basedpyright). None for a file no server is configured for
 * (a LICENSE among changed files), unless it was `named` on the command
 * line; a file whose servers cannot run is put in `unchecked`, where it
 * is needed when named or when it is a program's source (uncheckedRule).
 */
export async function fileSessions(
  path: string,
  req: DiagRequest,
  ctx: HandlerContext,
  unchecked: Map<string, Unchecked>,
  named = false,
): Promise<Session[]> {
  let candidates: Candidate[];
  const passed: PassedOver[] = [];
  try {
    candidates = candidatesFor(path, req, ctx, passed);
  } catch (err) {
    if (!(err instanceof LspqError)) throw err;
    if (err.code === 'no_server' && !named) return [];
    if (err.code !== 'server_not_installed' && err.code !== 'untrusted') throw err;
    const specs = configuredFor(path, req, ctx.trust);
    unchecked.set(path, {
      path,
      reason: notInstalled(undefined, specs, ctx.trust).message,
      needed: named || !specs.every((s) => s.checksDocuments),
    });
    return [];
  } finally {
    noteConfiguredLeftOut(path, req, ctx, passed);
  }
  const sessions: Session[] = [];
  for (const candidate of onePerFamily(candidates)) {
    sessions.push(await acquire(ctx, candidate, req));
  }
  return sessions;
}

/**
 * A checker the project configures (ESLint, Tailwind: a server that runs
 * only where its configuration is) that could not run for `path`: not
 * trusted, not installed, or without the package it runs. A diagnosis
 * without it is not whole, unless the user chose the servers (--server).
 */
function noteConfiguredLeftOut(path: string, req: DiagRequest, ctx: HandlerContext, passed: PassedOver[]): void {
  if (req.server) return;
  const specs = loadServers(dirname(path), req.env, ctx.trust);
  for (const p of passed) {
    const spec = specs.find((s) => s.id === p.id);
    const root = spec?.needsMarker ? findMarkedRoot(spec, dirname(path)) : undefined;
    if (!spec || !root || ctx.withheld.has(p.id)) continue;
    const config = spec.rootMarkers.flat().find((m) => existsSync(join(root, m)));
    const configured = `the checks ${config ? relative(req.cwd, join(root, config)) || config : 'its configuration'} asks for`;
    if ('untrusted' in p)
      ctx.withheld.set(p.id, {
        server: p.id,
        missing: `${configured} (its configuration is code)`,
        fix: 'lspq trust lets it run',
      });
    else if ('missing' in p)
      ctx.withheld.set(p.id, { server: p.id, missing: configured, fix: `install it: ${p.missing}` });
    else ctx.withheld.set(p.id, { server: p.id, missing: configured, fix: p.notUsed });
  }
}

/** What the tsconfigs made of git's list, by path, where they were read. */
export function tsconfigNotes(
  out: Collected,
): { leftOut: { path: string; config: string }[]; loose: string[] } | undefined {
  if (!out.tsconfig) return undefined;
  return {
    leftOut: [...out.tsconfig.leftOut]
      .map(([path, config]) => ({ path, config }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    loose: [...out.tsconfig.loose].sort(),
  };
}

/** The files not checked, by path. */
export function uncheckedList(unchecked: Map<string, Unchecked>): Unchecked[] {
  return [...unchecked.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * Merges what several servers or passes said: the same severity and message (whatever its whitespace) at the same
 * place is one diagnostic, the one with a code where one has it.
 */
export function mergeDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const seen = new Map<string, Diagnostic>();
  for (const d of list) {
    const message = d.message.replace(/\s+/g, ' ').trim();
    const key = `${d.path}\0${d.line}:${d.column}-${d.endLine}:${d.endColumn}\0${d.severity}\0${message}`;
    const first = seen.get(key);
    if (!first || (first.code === undefined && d.code !== undefined)) seen.set(key, d);
  }
  return [...seen.values()].sort(byPlace);
}

export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}

/** The least severity diag lists: --severity's, else warning; infos and hints are counted and listed when asked. */
export function shownFrom(req: DiagQuery): Severity {
  return req.severity ?? 'warning';
}

/**
 * Every file of the workspace (each server's languages under its root), to
 * be asked of the same servers `diag FILE` asks of it: one per family
 * (pyright and ruff), whatever server lists it. A server that answers for
 * its whole workspace in one request (workspace pull) is asked so instead.
 */
export async function workspaceWork(
  req: DiagRequest,
  ctx: HandlerContext,
  deadline: Deadline,
  out: Collected,
  pullWhole = true,
  /** The servers whose workspaces to cover (a patch's files'); else those of the project around --root or cwd. */
  from?: Session[],
): Promise<{ work: Map<Session, string[]>; asked: Set<Session> }> {
  const work = new Map<Session, string[]>();
  const asked = new Set<Session>();
  const pulled = new Set<Session>();
  const files = new Set<string>();
  // The sources a session's tsconfigs leave out: other servers of theirs (ESLint) still check them, it does not.
  const leftOutOf = new Map<Session, Set<string>>();
  for (const session of from ?? (await workspaceSessions(req, ctx))) {
    asked.add(session);
    const spec = session.client.spec;
    const listed = await workspaceFilesFor(session, req.env);
    if (spec.showsConfig) {
      // Its own workspace pull answers for what it has loaded, whatever the tsconfigs say: asked file by file.
      const set = await projectSet(session, session.client.root, listed, req.env, (p) => isSource(spec, p, existsSync));
      out.tsconfig ??= { leftOut: new Map(), loose: new Set() };
      for (const l of set.leftOut) out.tsconfig.leftOut.set(l.path, l.config);
      for (const f of set.loose) out.tsconfig.loose.add(f);
      leftOutOf.set(session, new Set(set.leftOut.map((l) => l.path)));
      for (const f of set.files) files.add(f);
      continue;
    }
    if (pullWhole && (await using(session, () => workspacePull(session, deadline, ctx, out)))) pulled.add(session);
    for (const f of listed) files.add(f);
  }
  // Each file's servers found a slice at a time: over 50 packages the whole loop held the thread for 90 ms,
  // and 20 files at a time 13 ms.
  const turn = turnEvery(FILES_PER_TURN);
  for (const path of [...files].sort()) {
    await turn();
    const why = unhandable(path);
    if (why) {
      out.skipped.set(path, why);
      continue;
    }
    for (const session of await fileSessions(path, req, ctx, out.unchecked)) {
      asked.add(session);
      if (leftOutOf.get(session)?.has(path)) continue;
      if (!pulled.has(session)) work.set(session, [...(work.get(session) ?? []), path]);
    }
  }
  return { work, asked };
}
