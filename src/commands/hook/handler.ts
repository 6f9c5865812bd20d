/**
 * hook run, in the engine: a session's start prepares the project's
 * servers in the background (prepare.ts); a file about to be edited is remembered as it
 * is (per agent and session, in the daemon); once edited, what the edit
 * introduced is the diagnostics of the files now, over their workspaces,
 * that they did not have as they were (engine/diagnose-tree.ts), the
 * disk's state being the later one. Where lspq did not see the file
 * before the edit, it is the edit undone (its replacements, where each
 * stands once), else git's index, else nothing (a new file).
 */
import { dirname } from 'node:path';
import { answeredBy } from '../../answers/caller';
import type { ChangedFile } from '../../answers/diagnostics';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { atLeast, type DiagRequest } from '../../engine/diagnose';
import { introducedBy } from '../../engine/diagnose-tree';
import { GitRepo } from '../../git/repo';
import { readWorkspaceText } from '../../common/file-size';
import { type Replacement, undone } from './input';
import { prepareInBackground } from './prepare';
import type { Baseline, HookQuery, HookResult } from './question';

function readText(path: string): string | null {
  return readWorkspaceText(path, 'source') ?? null;
}

/** The file as it was, where lspq did not see it before the edit. */
async function baselineOf(
  path: string,
  edits: Replacement[] | undefined,
  env: Record<string, string>,
): Promise<{ text: string | null; with: Baseline }> {
  const now = readText(path);
  const before = now !== null && edits ? undone(now, edits) : undefined;
  if (before !== undefined) return { text: before, with: 'the edit undone' };
  const repo = await GitRepo.open(dirname(path), env).catch(() => undefined);
  const staged = repo ? await repo.staged(path).catch(() => undefined) : undefined;
  return staged !== undefined ? { text: staged, with: "git's index" } : { text: null, with: 'nothing (a new file)' };
}

export async function hook(req: HookQuery, ctx: HandlerContext): Promise<HookResult> {
  const e = req.event;
  const key = `${req.agent}\0${e.session}`;
  const remembered = ctx.pool.caches.baselines.get(key) ?? new Map<string, { text: string | null; how: string }>();
  const quiet: HookResult = {
    kind: e.kind,
    compared: [],
    diagnostics: [],
    severity: req.severity,
    listedByFiles: true,
    incomplete: [],
    withheld: [],
    unchecked: [],
    answered: [],
  };
  if (e.kind === 'none') return quiet;
  if (e.kind === 'start') {
    prepareInBackground(e.folder ?? req.cwd, req, ctx);
    return quiet;
  }
  if (e.kind === 'before' || e.kind === 'edited') {
    // Cursor says a file was edited only after: the first edit of a turn decides what it was before.
    for (const path of e.files)
      if (e.kind === 'before') remembered.set(path, { text: readText(path), how: 'before the edit' });
      else if (!remembered.has(path)) {
        const base = await baselineOf(path, e.edits, req.env);
        remembered.set(path, { text: base.text, how: base.with });
      }
    ctx.pool.caches.baselines.set(key, remembered);
    return quiet;
  }
  const compared: HookResult['compared'] = [];
  const changes: ChangedFile[] = [];
  const files = e.kind === 'after' ? e.files : [...remembered.keys()];
  for (const path of files) {
    const known = remembered.get(path);
    // The pool's cache (lsp/) holds the word as a string; this handler put one of Baseline's words there.
    const base = known ? { text: known.text, with: known.how as Baseline } : await baselineOf(path, e.edits, req.env);
    if (e.kind === 'after') remembered.delete(path);
    compared.push({ path, with: base.with });
    const after = readText(path);
    if (base.text !== after) changes.push({ path, before: base.text, after });
  }
  ctx.pool.caches.baselines.set(key, remembered);
  if (changes.length === 0) return { ...quiet, compared };
  const asDiag: DiagRequest = {
    op: 'diag',
    files: [],
    all: false,
    cwd: req.cwd,
    env: req.env,
    limit: Number.MAX_SAFE_INTEGER,
    ...(req.root ? { root: req.root } : {}),
    ...(req.server ? { server: req.server } : {}),
    ...(req.timeoutMs ? { timeoutMs: req.timeoutMs } : {}),
  };
  // The disk holds the edit; the files as they were are laid over it. A new file stands as an empty one
  // where a server cannot be shown it gone (its importers' old errors then read a little differently).
  const found = await introducedBy(changes, 'after', 'workspace', asDiag, ctx, deadlineFor(req), {
    absentAsEmpty: true,
    least: req.severity,
  });
  const diagnostics = found.fresh.filter((d) => atLeast(d.severity, req.severity));
  // diag of their files lists them alone only where nothing there at the severity was old, and it judges as the hook.
  const theirs = new Set(diagnostics.map((d) => d.path));
  const listedByFiles =
    found.unjudged.length === 0 && !found.old.some((d) => theirs.has(d.path) && atLeast(d.severity, req.severity));
  // Cursor's turn: once its edits introduce nothing, they are the files' new starting point.
  if (e.kind === 'stop' && diagnostics.length === 0) ctx.pool.caches.baselines.set(key, new Map());
  return {
    kind: e.kind,
    compared,
    diagnostics,
    severity: req.severity,
    listedByFiles,
    incomplete: [...found.incomplete].sort(),
    withheld: found.withheld,
    unchecked: found.unchecked,
    answered: answeredBy(found.sessions),
  };
}
