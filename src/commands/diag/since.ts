/**
 * diag --since REV: the diagnostics present now that were not present at
 * REV. The same servers are asked twice: about now (the work tree, or the
 * index with --staged) and about REV's content of the changed files, handed
 * to them as unsaved documents the way --staged hands the index's; then the
 * disk's text goes back. A diagnostic counts as the same when its file,
 * severity, code, source and message match and its line maps through the
 * diff. --changed-lines keeps only those on lines added or changed since
 * REV (HEAD without --since).
 */
import { statSync } from 'node:fs';
import { readWorkspaceText } from '../../common/file-size';
import { LspqError } from '../../common/errors';
import type { GitRepo } from '../../git/repo';
import { lineMap } from '../../lsp/line-map';
import { inNeverSources } from '../../project/folders';
import type { Diagnostic, Severity } from '../../answers/diagnostics';
import type { DiagResult } from './question';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { isText, unhandable } from '../../engine/files';
import { holdAlone } from '../../engine/sessions';
import {
  atLeast,
  type Collected,
  collected,
  type DiagRequest,
  mergeDiagnostics,
  shownFrom,
  tsconfigNotes,
  uncheckedList,
  stagedSnapshot,
} from '../../engine/diagnose';
import { type Changed, pass, splitNew, workFor } from '../../engine/diagnose-since';
import type { Tree } from '../../engine/memory-tree';
import { withheldOf } from '../../engine/diagnose-tree';
import { answeredBy } from '../../answers/caller';

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

async function openRepo(req: DiagRequest): Promise<{ repo: GitRepo; commit: string; rev: string }> {
  const { GitRepo } = require('../../git/repo') as typeof import('../../git/repo');
  const repo = await GitRepo.open(req.cwd, req.env);
  if (!repo) throw new LspqError('usage', '--since and --changed-lines need a git repository; run inside one');
  const rev = req.since ?? 'HEAD';
  const commit = await repo.commitOf(rev);
  if (!commit)
    throw new LspqError('usage', `--since: '${rev}' names no commit in ${repo.top}; give a branch, a tag or a hash`);
  return { repo, commit, rev };
}

async function changedFiles(
  repo: GitRepo,
  commit: string,
  staged: boolean,
  skipped: Map<string, string>,
): Promise<Changed[]> {
  const out: Changed[] = [];
  const never = inNeverSources(repo.top);
  for (const c of await repo.changedSince(commit, staged)) {
    // An untracked link to a folder (node_modules) is no source file, nor is a `.venv` git does not ignore.
    if ((!staged && !isFile(c.path)) || never(c.path)) continue;
    const why = staged ? undefined : unhandable(c.path);
    if (why) {
      skipped.set(c.path, why);
      continue;
    }
    // Read without blocking: a FIFO put there since is skipped in diag's own words.
    const now = staged ? await repo.staged(c.path) : readWorkspaceText(c.path, 'source', { quiet: true });
    if (now === undefined) {
      skipped.set(c.path, 'not a regular file');
      continue;
    }
    if (!isText(now)) {
      skipped.set(c.path, 'not a text file');
      continue;
    }
    const then = c.was === undefined ? undefined : await repo.textAt(commit, c.was);
    out.push({ path: c.path, now, ...(then !== undefined ? { then } : {}), lines: lineMap(then ?? '', now) });
  }
  return out;
}

const count = (list: Diagnostic[]) => {
  const summary: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of list) summary[d.severity]++;
  return summary;
};

export async function diagSince(req: DiagRequest, ctx: HandlerContext): Promise<DiagResult> {
  const deadline = deadlineFor(req);
  const { repo, commit, rev } = await openRepo(req);
  const skipped = new Map<string, string>();
  const changed = await changedFiles(repo, commit, req.staged === true, skipped);
  const byPath = new Map(changed.map((c) => [c.path, c]));
  const named = new Set(req.files);
  const files = req.files.length ? req.files : changed.map((c) => c.path);
  const listed: Collected = { ...collected(req.context), skipped };
  const work = await workFor(req, files, ctx, deadline, listed);
  // Both states are this question's alone: no other question sees REV's text or the index's.
  await holdAlone([...work.keys()], req, ctx, deadline);
  // With --staged, both states are the commit's: the index's text wherever the work tree's differs.
  const snapshot = req.staged ? await stagedSnapshot(req) : undefined;
  const base: Tree = snapshot?.tree ?? new Map();
  // An untracked file is no file of the commit.
  if (snapshot)
    for (const [session, files] of work)
      work.set(
        session,
        files.filter((f) => !snapshot.untracked.has(f)),
      );
  const now = new Map([...base, ...(req.staged ? changed.map((c) => [c.path, c.now] as const) : [])]);
  // A check that reads the disk (cargo check) judges neither the staged tree nor REV's: left out there, and said.
  const held = req.staged === true && base.size > 0;
  const nowPass = await pass(work, now, req, ctx, deadline, { ownOnly: held });
  const incomplete = new Set(nowPass.incomplete);
  const current = mergeDiagnostics(nowPass.diagnostics);
  let shown = current;
  let present: Record<Severity, number> | undefined;
  if (req.since !== undefined) {
    // REV's text for each changed file; a file added since is empty there.
    const then = new Map([...base, ...changed.map((c) => [c.path, c.then ?? ''] as const)]);
    const thenPass = await pass(work, then, req, ctx, deadline, { ownOnly: held });
    for (const p of thenPass.incomplete) incomplete.add(p);
    const split = splitNew(mergeDiagnostics(thenPass.diagnostics), current, byPath);
    shown = split.fresh;
    present = count(split.old);
  }
  if (req.changedLines) {
    shown = shown.filter((d) => {
      const c = byPath.get(d.path);
      return c !== undefined && (c.then === undefined || c.lines.changed.has(d.line));
    });
  }
  if (req.files.length) shown = shown.filter((d) => named.has(d.path));
  const summary = count(shown);
  const visible = shown.filter((d) => atLeast(d.severity, shownFrom(req)));
  const checked = new Set([...work.values()].flat());
  const tsconfig = tsconfigNotes(listed);
  return {
    diagnostics: visible.slice(0, req.limit),
    summary,
    shown: shownFrom(req),
    files: [...checked].sort(),
    total: visible.length,
    truncated: visible.length > req.limit,
    incomplete: [...incomplete].sort(),
    skipped: [...skipped].map(([path, reason]) => ({ path, reason })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    answered: answeredBy([...work.keys()]),
    withheld: withheldOf([...work.keys()], ctx, held),
    unchecked: uncheckedList(listed.unchecked),
    ...(tsconfig ? { tsconfig } : {}),
    ...(present ? { since: { rev, present } } : {}),
  };
}
