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
import { readFileSync, statSync } from 'node:fs';
import { LspqError } from '../../common/errors';
import type { GitRepo } from '../../git/repo';
import { lineMap, type LineMap } from '../../lsp/line-map';
import type { Session } from '../../lsp/manager';
import { languageIdFor } from '../../lsp/servers/registry';
import type { Diagnostic, Severity } from '../../answers/diagnostics';
import type { DiagResult } from './answer';
import { deadlineFor, type Deadline, type HandlerContext } from '../../engine/context';
import { isText, unhandable } from '../../engine/files';
import { holdAlone } from '../../engine/sessions';
import {
  atLeast,
  BATCH,
  diagnoseBatch,
  fileSessions,
  mergeDiagnostics,
  workspaceWork,
  type Collected,
  type DiagRequest,
  collected,
  withheldBy,
} from './work';
import { answeredBy } from '../../answers/caller';

/** A changed file: its text now and at REV (undefined: added since). */
export interface Changed {
  path: string;
  now: string;
  then?: string;
  lines: LineMap;
}

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
  for (const c of await repo.changedSince(commit, staged)) {
    // An untracked link to a folder (node_modules) is no source file.
    if (!staged && !isFile(c.path)) continue;
    const why = staged ? undefined : unhandable(c.path);
    if (why) {
      skipped.set(c.path, why);
      continue;
    }
    const now = staged ? await repo.staged(c.path) : readFileSync(c.path, 'utf8');
    if (!isText(now)) {
      skipped.set(c.path, 'not a text file');
      continue;
    }
    const then = c.was === undefined ? undefined : await repo.textAt(commit, c.was);
    out.push({ path: c.path, now, ...(then !== undefined ? { then } : {}), lines: lineMap(then ?? '', now) });
  }
  return out;
}

/** The servers to ask and their files: the workspace's (--all), else each file's; one server per family either way. */
export async function workFor(
  req: DiagRequest,
  files: string[],
  ctx: HandlerContext,
  deadline: Deadline,
  out: Collected,
): Promise<Map<Session, string[]>> {
  // Compared in two passes over the same files: no server answers for its workspace at once here.
  if (req.all) return (await workspaceWork(req, ctx, deadline, out, false)).work;
  const work = new Map<Session, string[]>();
  for (const path of files)
    for (const session of await fileSessions(path, req, ctx, true))
      work.set(session, [...(work.get(session) ?? []), path]);
  return work;
}

/** One state of the project: `texts` laid over the disk's for each server of their language, then put back. */
export async function pass(
  work: Map<Session, string[]>,
  texts: Map<string, string>,
  req: DiagRequest,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<Collected> {
  const out = collected(req.context);
  for (const [session, files] of work) {
    const laid = [...texts].filter(([p]) => languageIdFor(session.client.spec, p) !== undefined);
    try {
      for (const [p, text] of laid) await session.docs.overlay(p, text);
      for (const f of files) out.files.add(f);
      for (let i = 0; i < files.length; i += BATCH)
        await diagnoseBatch(session, files.slice(i, i + BATCH), !req.all, ctx, deadline, out);
    } finally {
      for (const [p] of laid) await session.docs.endOverlay(p);
    }
  }
  return out;
}

const keyOf = (d: Diagnostic, line: number) =>
  JSON.stringify([d.path, d.severity, d.code ?? null, d.source ?? null, d.message, line]);

/**
 * `now` split into what is new and what was there `before`: the same file,
 * severity, code, source and message on a line that maps through the diff
 * of a changed file (unchanged files map line to line).
 */
export function splitNew(
  before: Diagnostic[],
  now: Diagnostic[],
  byPath: Map<string, Changed>,
): { fresh: Diagnostic[]; old: Diagnostic[] } {
  const left = new Map<string, number>();
  for (const d of before) {
    const c = byPath.get(d.path);
    if (c && c.then === undefined) continue;
    const line = c ? c.lines.toNew(d.line) : d.line;
    if (line === undefined) continue;
    left.set(keyOf(d, line), (left.get(keyOf(d, line)) ?? 0) + 1);
  }
  const fresh: Diagnostic[] = [];
  const old: Diagnostic[] = [];
  for (const d of now) {
    const k = keyOf(d, d.line);
    const n = left.get(k) ?? 0;
    if (n > 0) {
      left.set(k, n - 1);
      old.push(d);
    } else fresh.push({ ...d, new: true });
  }
  return { fresh, old };
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
  const listed: Collected = { diagnostics: [], incomplete: new Set(), skipped, files: new Set(), around: req.context };
  const work = await workFor(req, files, ctx, deadline, listed);
  // Both states are this question's alone: no other question sees REV's text or the index's.
  await holdAlone([...work.keys()], req, ctx, deadline);
  const now = new Map(req.staged ? changed.map((c) => [c.path, c.now]) : []);
  const nowPass = await pass(work, now, req, ctx, deadline);
  const incomplete = new Set(nowPass.incomplete);
  const current = mergeDiagnostics(nowPass.diagnostics);
  let shown = current;
  let present: Record<Severity, number> | undefined;
  if (req.since !== undefined) {
    // REV's text for each changed file; a file added since is empty there.
    const then = new Map(changed.map((c) => [c.path, c.then ?? '']));
    const thenPass = await pass(work, then, req, ctx, deadline);
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
  const visible = shown.filter((d) => !req.severity || atLeast(d.severity, req.severity));
  const checked = new Set([...work.values()].flat());
  return {
    diagnostics: visible.slice(0, req.limit),
    summary,
    files: [...checked].sort(),
    total: visible.length,
    truncated: visible.length > req.limit,
    incomplete: [...incomplete].sort(),
    skipped: [...skipped].map(([path, reason]) => ({ path, reason })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    answered: answeredBy([...work.keys()]),
    withheld: withheldBy([...work.keys()]),
    ...(present ? { since: { rev, present } } : {}),
  };
}
