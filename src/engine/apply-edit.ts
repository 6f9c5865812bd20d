/**
 * Writes an edit plan to disk, all or nothing, and never over another
 * program's write. Before anything is written, every file must still hold
 * the bytes the server computed the edit for and lie under the workspace
 * root (unless allowed), and the plan is recorded in the edit's journal
 * (journal.ts), so a crash at any instant leaves the tree as before or as
 * after. Each file is written to a temporary file beside it and renamed
 * over it, keeping its mode and, for a symlink, writing its target. A
 * program that writes a file while lspq replaces it is caught by its
 * GuardedFile (guarded-file.ts): the original goes back in place with that
 * write, every other file is put back, and the edit is refused as stale
 * (exit 3, the file named).
 */
import { existsSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { readWorkspaceText, skippedError, skippedFiles } from '../common/file-size';
import { dirname } from 'node:path';
import { LspqError, errnoOf, messageOf } from '../common/errors';
import { bytesOf, type EditPlan, type FileChange, type Move } from '../lsp/workspace-edit';
import { crashPoint } from './fault';
import { guardWrite, makeFolders } from '../common/workspace-guard';
import { type TemporaryNames, GuardedFile, WrittenMeanwhile, writeBytes } from './guarded-file';
import { realOf } from '../common/real-path';
import { temporaryNames, Journal, type JournalPlace, readBytesNow, removeMade } from './journal';
import { turnEvery } from '../common/turns';

export { readBytesNow };

export interface ApplyOptions {
  /** The workspace root (or each file's, for files named by the user): nothing outside it is written unless `allowOutside`. */
  root: string | ((path: string) => string);
  allowOutside: boolean;
  /** A folder nothing may be written outside of, whatever `allowOutside` says (an MCP server's pinned workspace). */
  confine?: string;
  /** The version of a file the server has open, to check a versioned edit against. */
  versionOf?: (path: string) => number | undefined;
  /** How long after the last rename to look at the originals once more (default RACE_SETTLE_MS). */
  settleMs?: number;
  /** Where the edit is journaled (every edit the engine writes is; a unit test may not). */
  journal?: JournalPlace;
}
/**
 * A program that opened a file just before lspq's rename may be a moment
 * from writing it (a shell's `>>` opens, then the command writes; on a busy
 * machine the two can be milliseconds apart). So the originals are read one
 * last time after this long, before lspq lets go of them. Without the
 * pause, one `echo >>` every 10-50 ms against about 250 renames a round
 * lost a line in one round of about forty.
 */
export const RACE_SETTLE_MS = 25;

/** A file's text now, or undefined when it cannot be read (also what an edit is planned against for a file the server has not open). */
export function readNow(path: string): string | undefined {
  return readWorkspaceText(path, 'source');
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

const stale = (path: string, detail = 'changed since the server computed the edit') =>
  new LspqError('stale_edit', `${path} ${detail}; nothing was written (run the command again)`);

const raced = (path: string) =>
  new LspqError(
    'stale_edit',
    `${path} was written by another program while lspq wrote the edit; its write is kept and nothing was changed (run the command again)`,
  );

const rootOf = (o: ApplyOptions, path: string) => (typeof o.root === 'string' ? o.root : o.root(path));

/** Refuses the plan before anything is written: a file outside the root, or one changed since the server saw it. */
export function checkPlan(plan: EditPlan, o: ApplyOptions): void {
  // An edit planned while a file of the workspace was skipped (a FIFO .editorconfig) is not the whole edit.
  const skips = skippedFiles.getStore();
  if (skips?.size) throw skippedError(skips, 'nothing was written');
  for (const m of plan.moves ?? []) {
    if (!existsSync(m.from)) throw stale(m.from, 'is gone');
    if (existsSync(m.to)) throw new LspqError('stale_edit', `${m.to} exists now; nothing was moved or written`);
  }
  const moved = (plan.moves ?? []).flatMap((m) => [m.from, m.to]);
  const touched = [...plan.files.flatMap((f) => [f.path, f.renamedTo]), ...moved];
  // Every write judged where it lands (workspace-guard.ts): the whole edit is refused if one lands outside.
  for (const path of touched) {
    if (path === undefined) continue;
    guardWrite(path, rootOf(o, path), o.allowOutside);
    if (o.confine) guardWrite(path, o.confine, false, true);
  }
  for (const f of plan.files) {
    const version = o.versionOf?.(f.path);
    if (f.version !== undefined && version !== undefined && f.version !== version) throw stale(f.path);
  }
}

/**
 * Files checked or written between turns of the daemon's other questions:
 * an edit of thousands of files never holds its thread for long. What runs
 * meanwhile on the same servers waits for the edit's lease; a program
 * that writes one of its files meanwhile is caught by that file's guard.
 */
const FILES_PER_TURN = 100;

/** One step taken, and how to take it back without overwriting anyone. */
interface Undo {
  path: string;
  back: () => void;
}

/** A text file the plan changes, guarded against other programs' writes. */
interface Guarded {
  change: FileChange;
  file: GuardedFile;
  mode: number | undefined;
  replaced: boolean;
}

/**
 * Writes the plan, or nothing: on any failure the steps taken are undone
 * and the error says what failed. Returns the paths written.
 */
export async function writePlan(plan: EditPlan, o: ApplyOptions): Promise<string[]> {
  checkPlan(plan, o);
  // What lspq makes beside each file, named before anything is made, so the journal can remove it after a crash.
  const beside = new Map(plan.files.map((f) => [f.path, temporaryNames(realOf(f.path))] as const));
  const besideOf = (path: string) => {
    const names = beside.get(path);
    if (!names) throw new Error(`internal: no temporary names for ${path}`);
    return names;
  };
  const journal = o.journal ? Journal.begin(o.journal, plan, beside) : undefined;
  const guarded: Guarded[] = [];
  const undo: Undo[] = [];
  const paths: string[] = [];
  // Files another program wrote after lspq did: left as they are by the undo.
  const left: string[] = [];
  try {
    // Moves first: the files' edits name where the moved files are then (taken back last on failure).
    for (const [i, m] of (plan.moves ?? []).entries()) {
      move(m, undo, (top) => journal?.movedMaking(i, top));
      paths.push(m.to);
    }
    // Every original opened and checked before the first write, so a stale file costs nothing.
    const turn = turnEvery(FILES_PER_TURN);
    for (const f of plan.files) {
      await turn();
      const before = bytesOf(f).before;
      if (before === null) continue;
      const file = GuardedFile.open(f.path, before, besideOf(f.path));
      if (!file) throw stale(f.path, 'can no longer be read');
      guarded.push({ change: f, file, mode: modeOf(realOf(f.path)), replaced: false });
      if (!file.unchanged()) throw stale(f.path);
    }
    const guardOf = new Map(guarded.map((g) => [g.change, g] as const));
    for (const f of plan.files) {
      await turn();
      try {
        step(f, guardOf.get(f), undo, besideOf(f.path));
      } catch (err) {
        if (err instanceof LspqError || err instanceof WrittenMeanwhile) throw err;
        throw writeFailed(f.path, err, paths.length);
      }
      paths.push(f.renamedTo ?? f.path);
    }
    // A write that reached an original after its own check: look once more, after a moment.
    if (guarded.some((g) => g.replaced)) await Bun.sleep(o.settleMs ?? RACE_SETTLE_MS);
    for (const g of guarded) if (g.replaced) checkRaced(g, undo);
    journal?.written();
    for (const g of guarded.splice(0)) g.file.close();
    journal?.end(true);
    return paths;
  } catch (err) {
    const failed = rollBack(undo, left);
    for (const g of guarded.splice(0)) g.file.close();
    journal?.end(false);
    throw explain(err, failed, left);
  } finally {
    for (const g of guarded) g.file.close();
  }
}

/** Moves a file or a folder, making the folders above its new place; undone by moving it back and removing them. */
function move(m: Move, undo: Undo[], making: (top: string | undefined) => void): void {
  let made: string | undefined;
  for (let d = dirname(m.to); !existsSync(d); d = dirname(d)) made = d;
  making(made);
  if (made) makeFolders(dirname(m.to));
  try {
    renameSync(m.from, m.to);
    crashPoint('moved');
  } catch (err) {
    if (made) removeMade(dirname(m.to), made);
    throw err;
  }
  undo.push({
    path: m.from,
    back: () => {
      renameSync(m.to, m.from);
      if (made) removeMade(dirname(m.to), made);
    },
  });
}

/** Writes one file's change; a write is checked against its original right after the rename. */
function step(f: FileChange, g: Guarded | undefined, undo: Undo[], names: TemporaryNames): void {
  const mode = g?.mode ?? modeOf(realOf(f.path));
  const { before, after } = bytesOf(f);
  // A file without its owner's write permission says "leave me": replacing it by a rename would not ask.
  if (before !== null && mode !== undefined && (mode & 0o200) === 0) {
    throw Object.assign(new Error('read-only'), { code: 'read-only' });
  }
  if (g && after !== null && f.after !== f.before) {
    g.file.replace(after, mode);
    g.replaced = true;
    undo.push({ path: f.path, back: () => g.file.putBack(mode) });
    checkRaced(g, undo);
  } else if (before === null && after !== null) {
    writeBytes(f.path, after, undefined, names.temporary);
    undo.push({
      path: f.path,
      back: () => (equalBytes(readBytesNow(f.path), after) ? unlinkSync(f.path) : leave(f.path)),
    });
  }
  const renamedTo = f.renamedTo;
  if (renamedTo !== undefined) {
    makeFolders(dirname(renamedTo));
    renameSync(f.path, renamedTo);
    crashPoint('renamed');
    undo.push({ path: f.path, back: () => renameSync(renamedTo, f.path) });
  }
  if (after === null && before !== null) {
    unlinkSync(f.path);
    crashPoint('deleted');
    undo.push({ path: f.path, back: () => writeBytes(f.path, before, mode, names.temporary) });
  }
}

const equalBytes = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.compare(a, b) === 0;

function leave(path: string): never {
  throw new WrittenMeanwhile(path);
}

/**
 * Another program wrote to the original of a file lspq replaced: the
 * original goes back in place with that write (the undo that does it runs
 * first), and the edit is refused.
 */
function checkRaced(g: Guarded, undo: Undo[]): void {
  if (g.file.unchanged()) return;
  const own = undo.findIndex((u) => u.path === g.change.path);
  if (own >= 0) undo.push(...undo.splice(own, 1));
  throw raced(g.change.path);
}
/** Undoes the steps taken, newest first; returns the paths that could not be put back. */
function rollBack(undo: Undo[], left: string[]): string[] {
  const failed: string[] = [];
  for (const u of undo.reverse()) {
    try {
      u.back();
    } catch (err) {
      if (err instanceof WrittenMeanwhile) left.push(u.path);
      else failed.push(u.path);
    }
  }
  return failed;
}

function writeFailed(path: string, err: unknown, before: number): LspqError {
  const why = errnoOf(err) ?? messageOf(err);
  const restored = before ? ` (${before} file(s) written before it were restored)` : '';
  return new LspqError('write_failed', `could not write ${path} (${why}); nothing was changed${restored}`);
}

/** The error to report once the undo ran: what it could not restore, and what it left to another program. */
function explain(err: unknown, failed: string[], left: string[]): LspqError {
  if (err instanceof WrittenMeanwhile) left.push(err.message);
  const base =
    err instanceof LspqError
      ? err
      : new LspqError('write_failed', `could not write the edit (${messageOf(err)}); files were restored`);
  if (failed.length === 0 && left.length === 0) return base;
  const notes = [
    failed.length ? `could not restore ${failed.join(', ')}; check them with git diff` : '',
    left.length ? `left as another program wrote them: ${[...new Set(left)].join(', ')}` : '',
  ].filter(Boolean);
  return new LspqError(
    base.code,
    `${base.message.replace(/; nothing was (written|changed).*$/, '')}; ${notes.join('; ')}`,
  );
}
