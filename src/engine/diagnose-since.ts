/**
 * Diagnostics compared between two states of a project, for diag --since
 * and rename --verify: the same servers asked about each state (texts laid
 * over the disk's as unsaved documents, then put back), and what is new
 * told from what was there by mapping lines through each file's diff.
 */
import type { LineMap } from '../lsp/line-map';
import type { Session } from '../lsp/manager';
import type { Diagnostic } from '../answers/diagnostics';
import type { Deadline, HandlerContext } from './context';
import { withoutViewLabel } from './go-constraints';
import { entriesFor, inTree, layOver, takeOff, type Tree } from './memory-tree';
import {
  BATCH,
  type Collected,
  collected,
  type DiagRequest,
  diagnoseBatch,
  fileSessions,
  rememberedDiagnoses,
  workspaceWork,
} from './diagnose';

/** A changed file: its text now and at REV (undefined: added since). */
export interface Changed {
  path: string;
  now: string;
  then?: string;
  lines: LineMap;
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
    for (const session of await fileSessions(path, req, ctx, out.unchecked))
      work.set(session, [...(work.get(session) ?? []), path]);
  return work;
}

/**
 * One state of the project: `tree` laid over the disk's for each server of
 * its languages, then taken off; the files of `work` that the state holds
 * are diagnosed. `keepOpen`: the files stay open after (a question about
 * named files); `ownOnly`: no check that reads the disk (memory.ts).
 */
/**
 * What the servers already said of the files in the state `tree` lays
 * over the disk, where that still holds (Documents), added to `out`
 * without asking them; returns the files left to ask.
 */
export async function recall(
  work: Map<Session, string[]>,
  tree: Tree,
  ownOnly: boolean | undefined,
  ctx: HandlerContext,
  out: Collected,
): Promise<Map<Session, string[]>> {
  const left = new Map<Session, string[]>();
  for (const [session, all] of work) {
    // Heard first: a change on disk since the server was last asked is one of the things that decide.
    await ctx.beforeRequest?.(session);
    await session.docs.refreshAll();
    const files = all.filter((f) => inTree(tree, f));
    const rest = rememberedDiagnoses(session, files, entriesFor(session, tree), ownOnly, ctx, out);
    for (const f of files) if (!rest.includes(f)) out.files.add(f);
    if (files.length > 0)
      ctx.log(
        `${session.client.spec.id}: ${files.length - rest.length} of ${files.length} files recalled as diagnosed`,
      );
    left.set(session, rest);
  }
  return left;
}

export async function pass(
  work: Map<Session, string[]>,
  tree: Tree,
  req: DiagRequest,
  ctx: HandlerContext,
  deadline: Deadline,
  how: { keepOpen?: boolean; ownOnly?: boolean; remembered?: boolean } = {},
  /** Where the answers go: a Collected begun by recall, else a new one. */
  out: Collected = collected(req.context),
): Promise<Collected> {
  const keepOpen = how.keepOpen ?? !req.all;
  const left = how.remembered ? await recall(work, tree, how.ownOnly, ctx, out) : work;
  for (const [session, all] of work) {
    const files = all.filter((f) => inTree(tree, f));
    for (const f of files) out.files.add(f);
    const asked = files.filter((f) => left.get(session)?.includes(f));
    if (asked.length === 0) continue;
    try {
      await layOver(session, tree, ctx, deadline);
      for (let i = 0; i < asked.length; i += BATCH)
        await diagnoseBatch(session, asked.slice(i, i + BATCH), keepOpen, ctx, deadline, out, {
          ownOnly: how.ownOnly,
        });
    } finally {
      await takeOff(session, tree);
    }
  }
  return out;
}

const keyOf = (d: Diagnostic, line: number) =>
  JSON.stringify([d.path, d.severity, d.code ?? null, d.source ?? null, withoutViewLabel(d.message), line]);

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
