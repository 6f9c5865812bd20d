/**
 * Writes an edit plan to disk, all or nothing, and never over another
 * program's write. Before anything is written, every file must still hold
 * the text the server computed the edit for and lie under the workspace
 * root (unless allowed). Each file is written to a temporary file beside it
 * and renamed over it, keeping its mode and, for a symlink, writing its
 * target.
 *
 * A check and a rename are two steps, and another program can write in
 * between (an editor's save, a formatter, `echo >> file`). So the original
 * file is kept open from the check on: whatever lands in it after the check
 * is still there to read after the rename. If it no longer holds the text
 * the edit was planned against, the other program's text is put back in
 * place, every file already written is put back as it was, and the edit is
 * refused as stale (exit 3, the file named). A file that another program
 * wrote after lspq's rename is never overwritten by an undo: it is left as
 * that program wrote it, and the error says so.
 */
import {
  chmodSync,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LspqError } from '../errors';
import type { EditPlan, FileChange } from '../lsp/edits';

export interface ApplyOptions {
  /** The workspace root: nothing outside it is written unless `allowOutside`. */
  root: string;
  allowOutside: boolean;
  /** The version of a file the server has open, to check a versioned edit against. */
  versionOf?: (path: string) => number | undefined;
}

let temporaries = 0;

/** The file a path writes to: a symlink's target (the link stays a link). */
function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A file's text now, or undefined when it cannot be read (also what an edit is planned against for a file the server has not open). */
export function readNow(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** `text` into `path` whole: a temporary file beside it, renamed over it. */
function writeWhole(path: string, text: string, mode: number | undefined): void {
  const real = realOf(path);
  mkdirSync(dirname(real), { recursive: true });
  const temporary = join(dirname(real), `.${basename(real)}.lspq-${process.pid}-${++temporaries}`);
  try {
    writeFileSync(temporary, text, { flag: 'wx', mode: 0o600 });
    chmodSync(temporary, mode ?? 0o644);
    renameSync(temporary, real);
  } catch (err) {
    try {
      unlinkSync(temporary);
    } catch {}
    throw err;
  }
}

/**
 * A file as it was before lspq replaced it, held open: after the rename the
 * descriptor still reads the old file, so a write another program made to it
 * at any moment since it was opened can be seen, and not lost.
 */
class Original {
  private constructor(private readonly fd: number) {}

  static open(path: string): Original | undefined {
    try {
      return new Original(openSync(realOf(path), 'r'));
    } catch {
      return undefined;
    }
  }

  text(): string {
    const size = fstatSync(this.fd).size;
    const bytes = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const n = readSync(this.fd, bytes, at, size - at, at);
      if (n <= 0) break;
      at += n;
    }
    return bytes.subarray(0, at).toString('utf8');
  }

  close(): void {
    closeSync(this.fd);
  }
}

const under = (path: string, root: string) => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);

const stale = (path: string, detail = 'changed since the server computed the edit') =>
  new LspqError('stale_edit', `${path} ${detail}; nothing was written (run the command again)`);

const raced = (path: string) =>
  new LspqError(
    'stale_edit',
    `${path} was written by another program while lspq wrote the edit; its write is kept and nothing was changed (run the command again)`,
  );

/** Refuses the plan before anything is written: a file outside the root, or one changed since the server saw it. */
export function checkPlan(plan: EditPlan, o: ApplyOptions): void {
  const root = realOf(o.root);
  if (!o.allowOutside) {
    for (const f of plan.files) {
      for (const path of [f.path, f.renamedTo].filter((p): p is string => p !== undefined)) {
        if (!under(realOf(path), root) && !under(path, o.root)) {
          throw new LspqError(
            'outside_workspace',
            `the edit would change ${path}, outside the workspace root ${o.root}; nothing was written (add --allow-outside to allow it)`,
          );
        }
      }
    }
  }
  for (const f of plan.files) {
    const version = o.versionOf?.(f.path);
    if (f.version !== undefined && version !== undefined && f.version !== version) throw stale(f.path);
  }
}

/** One step taken, and how to take it back without overwriting anyone. */
interface Undo {
  path: string;
  back: () => void;
}

/** A text file written by this plan: its original kept open to catch writes that race the rename. */
interface Guarded {
  change: FileChange;
  original: Original;
  mode: number | undefined;
}

/**
 * Writes the plan, or nothing: on any failure the steps taken are undone
 * and the error says what failed. Returns the paths written.
 */
export function writePlan(plan: EditPlan, o: ApplyOptions): string[] {
  checkPlan(plan, o);
  const guarded: Guarded[] = [];
  const undo: Undo[] = [];
  const paths: string[] = [];
  // Files another program wrote after lspq did: left as they are by the undo.
  const left: string[] = [];
  try {
    // Every original opened and checked before the first write, so a stale file costs nothing.
    for (const f of plan.files) {
      if (f.before === null) continue;
      const original = Original.open(f.path);
      if (!original) throw stale(f.path, 'can no longer be read');
      guarded.push({ change: f, original, mode: modeOf(realOf(f.path)) });
      if (original.text() !== f.before) throw stale(f.path);
    }
    for (const f of plan.files) {
      try {
        step(f, guarded, undo);
      } catch (err) {
        if (err instanceof LspqError) throw err;
        throw writeFailed(f.path, err, paths.length);
      }
      paths.push(f.renamedTo ?? f.path);
    }
    // A write to an original after its rename was made in the file lspq replaced: look once more at the end.
    for (const g of guarded) racedWrite(g, undo);
    return paths;
  } catch (err) {
    const failed = rollBack(undo, left);
    throw explain(err, failed, left);
  } finally {
    for (const g of guarded) g.original.close();
  }
}

/** Writes one file's change; a text write is checked against its original right after the rename. */
function step(f: FileChange, guarded: Guarded[], undo: Undo[]): void {
  const g = guarded.find((x) => x.change === f);
  const mode = g?.mode ?? modeOf(realOf(f.path));
  // A file without its owner's write permission says "leave me": replacing it by a rename would not ask.
  if (f.before !== null && mode !== undefined && (mode & 0o200) === 0) {
    throw Object.assign(new Error('read-only'), { code: 'read-only' });
  }
  if (g && f.after !== null && f.after !== f.before) {
    writeWhole(f.path, f.after, mode);
    const after = f.after;
    undo.push({ path: f.path, back: () => restoreIfOurs(f.path, after, f.before!, mode) });
    racedWrite(g, undo);
  } else if (f.before === null && f.after !== null) {
    writeWhole(f.path, f.after, undefined);
    const after = f.after;
    undo.push({ path: f.path, back: () => (readNow(f.path) === after ? unlinkSync(f.path) : leave(f.path)) });
  }
  if (f.renamedTo !== undefined) {
    mkdirSync(dirname(f.renamedTo), { recursive: true });
    renameSync(f.path, f.renamedTo);
    undo.push({ path: f.path, back: () => renameSync(f.renamedTo!, f.path) });
  }
  if (f.after === null && f.before !== null) {
    unlinkSync(f.path);
    undo.push({ path: f.path, back: () => writeWhole(f.path, f.before!, mode) });
  }
}

/** Thrown by an undo step that finds another program's text where lspq's was. */
class LeftAsIs extends Error {}

function leave(path: string): never {
  throw new LeftAsIs(path);
}

/** Puts `before` back only while the file still holds what lspq wrote: never over another program's write. */
function restoreIfOurs(path: string, ours: string, before: string, mode: number | undefined): void {
  if (readNow(path) !== ours) leave(path);
  writeWhole(path, before, mode);
}

/**
 * The original of a written file no longer holds the text the edit was
 * planned against: another program wrote to it between the check and the
 * rename (or just after). Its text goes back in place of lspq's, and the
 * edit is refused.
 */
function racedWrite(g: Guarded, undo: Undo[]): void {
  const theirs = g.original.text();
  if (theirs === g.change.before) return;
  const path = g.change.path;
  // This file's own undo would restore the pre-image: replace it with theirs.
  const own = undo.findIndex((u) => u.path === path);
  if (own >= 0) undo.splice(own, 1);
  if (g.change.after !== null && readNow(path) === g.change.after) writeWhole(path, theirs, g.mode);
  else if (readNow(path) !== theirs) throw new LeftAsIs(path);
  throw raced(path);
}

/** Undoes the steps taken, newest first; returns the paths that could not be put back. */
function rollBack(undo: Undo[], left: string[]): string[] {
  const failed: string[] = [];
  for (const u of undo.reverse()) {
    try {
      u.back();
    } catch (err) {
      if (err instanceof LeftAsIs) left.push(u.path);
      else failed.push(u.path);
    }
  }
  return failed;
}

function writeFailed(path: string, err: unknown, before: number): LspqError {
  const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  const restored = before ? ` (${before} file(s) written before it were restored)` : '';
  return new LspqError('write_failed', `could not write ${path} (${why}); nothing was changed${restored}`);
}

/** The error to report once the undo ran: what it could not restore, and what it left to another program. */
function explain(err: unknown, failed: string[], left: string[]): LspqError {
  if (err instanceof LeftAsIs) left.push(err.message);
  const base =
    err instanceof LspqError
      ? err
      : new LspqError('write_failed', `could not write the edit (${(err as Error).message}); files were restored`);
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
