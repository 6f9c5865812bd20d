/**
 * What a change held in memory introduces: the same servers asked about the
 * files as they are on disk and about the tree the change makes of them,
 * laid over the disk (memory-tree.ts), and the diagnostics of the one told
 * from those of the other as diag --since tells them (diagnose-since.ts).
 * diag --patch and a dry run's --verify lay the changed tree after the
 * disk; the after-edit hook lays the tree before the edit, the disk being
 * after it. Nothing is written; each server is held alone while it holds
 * the tree, and has the disk's texts back before it is given up.
 */
import type { ChangedFile, Diagnostic, Severity, Unchecked, Withheld } from '../answers/diagnostics';
import { checksOnSave, strategyFor } from '../lsp/complete-diagnostics';
import { lineMap } from '../lsp/line-map';
import type { Session } from '../lsp/manager';
import type { Deadline, HandlerContext } from './context';
import {
  atLeast,
  type Collected,
  collected,
  type DiagRequest,
  fileSessions,
  uncheckedList,
  mergeDiagnostics,
  withheldBy,
  workspaceWork,
} from './diagnose';
import { type Changed, pass, recall, splitNew } from './diagnose-since';
import { refuseUnshowable, type Tree } from './memory-tree';
import { holdAlone } from './sessions';
import { filesReached } from '../project/importers';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type { ChangedFile };

export interface Introduced {
  /** In the state after the change and not before it (each marked new). */
  fresh: Diagnostic[];
  /** In the state after the change and already before it. */
  old: Diagnostic[];
  /** Files checked in either state. */
  files: string[];
  incomplete: Set<string>;
  skipped: Map<string, string>;
  sessions: Session[];
  /** What the servers left out (withheldBy), and checks that read the disk, which could not be asked about the tree (rust-analyzer's cargo check). */
  withheld: Withheld[];
  /** The files those checks would have judged. */
  unjudged: string[];
  /** Files no installed server could check. */
  unchecked: Unchecked[];
}

/**
 * The servers to ask and their files: `workspace`, the files of the
 * changed files' servers' workspaces that the change can reach (the changed
 * files and those importing them, project/importers.ts; every file where
 * that cannot be told), so a broken caller nobody touched is found;
 * `files`, the changed files alone. Files the change creates are added to
 * their own servers' lists.
 */
async function workOf(
  changes: ChangedFile[],
  scope: 'workspace' | 'files',
  req: DiagRequest,
  ctx: HandlerContext,
  deadline: Deadline,
  out: Collected,
  /** A tree under both states (a chain's earlier patches): its new files are checked, its texts read for imports. */
  base: Tree,
): Promise<Map<Session, string[]>> {
  const made = [...base].flatMap(([path, text]) => (text !== null ? [path] : []));
  const moved = changes.flatMap((c) => [c.path, ...(c.renamedFrom ? [c.renamedFrom] : [])]);
  const touched = [...moved, ...made];
  const work = new Map<Session, string[]>();
  const add = (session: Session, path: string) => {
    const list = work.get(session) ?? [];
    if (!list.includes(path)) work.set(session, [...list, path]);
  };
  const sessionsOf = new Map<string, Session[]>();
  for (const path of touched) sessionsOf.set(path, await fileSessions(path, req, ctx, out.unchecked));
  if (scope === 'workspace') {
    const servers = new Set([...sessionsOf.values()].flat());
    if (servers.size > 0)
      for (const [s, files] of (await workspaceWork(req, ctx, deadline, out, false, [...servers])).work) {
        const reached = reachedBy(changes, s, sessionsOf, files, base);
        for (const f of files) if (!reached || reached.has(f)) add(s, f);
      }
  }
  for (const path of touched) for (const s of sessionsOf.get(path) ?? []) add(s, path);
  return work;
}

/** The files of a session's list that this change to its own files can reach; undefined: all of them. */
function reachedBy(
  changes: ChangedFile[],
  session: Session,
  sessionsOf: Map<string, Session[]>,
  files: string[],
  base: Tree,
): Set<string> | undefined {
  const own = new Map<string, (string | null)[]>();
  for (const c of changes) {
    if (sessionsOf.get(c.path)?.includes(session)) own.set(c.path, [c.before, c.after]);
    if (c.renamedFrom && sessionsOf.get(c.renamedFrom)?.includes(session)) own.set(c.renamedFrom, [c.before, null]);
  }
  const read = (path: string): string | undefined => {
    const held = base.get(path);
    if (held !== undefined) return held ?? undefined;
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  return filesReached(own, files, read, session.client.root);
}

/** Servers with a check that reads the disk, left out of a comparison whose one side is held in memory. */
const checksDisk = (s: Session) =>
  strategyFor(s) === 'pull-and-check' && checksOnSave(s.client.spec) && !s.client.spec.restricted;

function diskChecks(sessions: Session[]): Withheld[] {
  return sessions.filter(checksDisk).map((s) => ({
    server: s.client.spec.id,
    missing: "cargo check's diagnostics (it checks the files on disk, not text held in memory)",
    fix: "write the edit and ask 'lspq diag --since HEAD --all'",
  }));
}

/** What the servers left out, and where a tree was held in memory (`held`), each check that reads the disk: once a server. */
export function withheldOf(sessions: Session[], ctx: HandlerContext, held: boolean): Withheld[] {
  return [...withheldBy(sessions, ctx), ...(held ? diskChecks(sessions) : [])].filter(
    (w, i, all) => all.findIndex((o) => o.server === w.server) === i,
  );
}

/**
 * gopls does not run most analyzers on a package that does not type-check:
 * an analyzer's finding in a Go package whose state before had a compiler
 * error cannot be told new (it may only have been withheld) and is counted
 * as there before. Pure.
 */
export function undecidable(
  split: { fresh: Diagnostic[]; old: Diagnostic[] },
  before: Diagnostic[],
): { fresh: Diagnostic[]; old: Diagnostic[] } {
  const broken = new Set(
    before
      .filter((d) => d.path.endsWith('.go') && d.source === 'compiler' && d.severity === 'error')
      .map((d) => dirname(d.path)),
  );
  if (broken.size === 0) return split;
  const withheld = (d: Diagnostic) =>
    d.path.endsWith('.go') && d.source !== 'compiler' && d.severity !== 'error' && broken.has(dirname(d.path));
  return {
    fresh: split.fresh.filter((d) => !withheld(d)),
    old: [...split.old, ...split.fresh.filter(withheld).map(({ new: _, ...d }) => d)],
  };
}

export interface IntroducedHow {
  /** A file absent from the tree stands as an empty one where a server cannot be shown it gone (the hook's new files). */
  absentAsEmpty?: boolean;
  /** A tree under both states (a chain's earlier patches). */
  base?: Tree;
  /** The least severity the caller tells: a file with nothing at it after the change is not asked about the state before. */
  least?: Severity;
}

/**
 * The diagnostics `changes` introduce. `disk`: which side the disk is,
 * the other laid over it as a tree. The state after the change is asked
 * of every file; the state before it, where the disk is that state and its
 * servers diagnosed it with nothing changed since, of every file first
 * (their answers kept, little to pay); else after, of the files with
 * something to say after the change alone, at the severity the caller
 * tells (on immer, a patch's check went from a full pass each way to one
 * and a few files); where the disk is that state, from what its servers
 * said of it when nothing on disk has changed since (Documents). `base`: a
 * tree under both states, neither then the disk's (a chain's patches after
 * the first: the tree the ones before it made).
 */
export async function introducedBy(
  changes: ChangedFile[],
  disk: 'before' | 'after',
  scope: 'workspace' | 'files',
  req: DiagRequest,
  ctx: HandlerContext,
  deadline: Deadline,
  how: IntroducedHow = {},
): Promise<Introduced> {
  const { absentAsEmpty = false, base = new Map(), least = 'hint' } = how;
  const listed = collected(req.context);
  const work = await workOf(changes, scope, req, ctx, deadline, listed, base);
  // Each state as laid over the disk: the change's side, a renamed file gone from where it was after it.
  const stateOf = (side: 'before' | 'after'): Tree =>
    new Map([
      ...base,
      ...changes.flatMap((c): [string, string | null][] =>
        side === 'after'
          ? [[c.path, c.after], ...(c.renamedFrom ? [[c.renamedFrom, null] as [string, null]] : [])]
          : c.renamedFrom
            ? [
                [c.renamedFrom, c.before],
                [c.path, null],
              ]
            : [[c.path, c.before]],
      ),
    ]);
  const none: Tree = new Map();
  const laid = base.size > 0;
  const treeBefore = disk === 'before' && !laid ? none : stateOf('before');
  const treeAfter = disk === 'after' && !laid ? none : stateOf('after');
  const sessions = [...work.keys()];
  for (const tree of [treeBefore, treeAfter]) refuseUnshowable(sessions, tree, req.cwd, absentAsEmpty);
  // Both states are this question's alone: no other question sees the tree.
  await holdAlone(sessions, req, ctx, deadline);
  // The files stay open (as many as Documents keeps): an agent's next edit is checked against documents the
  // server holds, not opened again (gopls: 340 ms a check of cobra's 36 files, where they stay open 20 ms).
  const asked = { keepOpen: true, ownOnly: true };
  const moved = new Map(changes.flatMap((c) => (c.renamedFrom ? [[c.renamedFrom, c.path] as const] : [])));
  // The disk's side first where it costs little (its servers diagnosed it and nothing changed since): every file
  // then, before the tree is laid. Else the state after the change first, and the state before it only for the
  // files with something to say after it (the rest can hold nothing new): a server laid a tree over and taken off
  // again checks afresh what it is asked.
  const warm = disk === 'before' && !laid && sessions.every((s) => s.docs.warm);
  // The state before is what the servers said of it where it was the disk and nothing else changed since (the
  // disk now; the hook's tree, the disk before the edit): a server given a state back computes it again
  // (pyright, rust-analyzer: half of a check).
  const before = { ...asked, remembered: true };
  let then: Collected | undefined;
  if (warm) then = await pass(work, none, req, ctx, deadline, before);
  // The hook's state before is the disk before the edit: recalled before the disk after it is diagnosed, which
  // is remembered in its place.
  const recalled = collected(req.context);
  const unrecalled = disk === 'after' && !laid ? await recall(work, treeBefore, asked.ownOnly, ctx, recalled) : work;
  const now = await pass(work, treeAfter, req, ctx, deadline, asked);
  if (!then) {
    const said = new Set(now.diagnostics.filter((d) => atLeast(d.severity, least)).map((d) => d.path));
    const saysSomething = (f: string) => said.has(f) || said.has(moved.get(f) ?? '');
    const toAsk = new Map(
      [...unrecalled].map(([s, files]) => [s, files.filter(saysSomething)] as const).filter(([, f]) => f.length > 0),
    );
    then = await pass(toAsk, treeBefore, req, ctx, deadline, before, recalled);
  }
  // What was said of a renamed file where it was is said of it where it goes.
  const old = mergeDiagnostics(then.diagnostics.map((d) => ({ ...d, path: moved.get(d.path) ?? d.path })));
  const after = mergeDiagnostics(now.diagnostics);
  const byPath = new Map<string, Changed>();
  for (const c of changes) {
    if (c.after === null) continue;
    const then = c.before ?? undefined;
    byPath.set(c.path, {
      path: c.path,
      now: c.after,
      ...(then !== undefined ? { then } : {}),
      lines: lineMap(then ?? '', c.after),
    });
  }
  const split = undecidable(splitNew(old, after, byPath), old);
  return {
    fresh: split.fresh,
    old: split.old,
    files: [...new Set([...now.files, ...then.files])].sort(),
    incomplete: new Set([...now.incomplete, ...then.incomplete, ...listed.incomplete]),
    skipped: listed.skipped,
    sessions,
    withheld: withheldOf(sessions, ctx, true),
    unjudged: [...work].flatMap(([s, files]) => (checksDisk(s) ? files : [])).sort(),
    unchecked: uncheckedList(listed.unchecked),
  };
}
