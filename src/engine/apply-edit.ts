/**
 * Writes an edit plan to disk, all or nothing. Before anything is written,
 * every file must still hold the text the server computed the edit for and
 * lie under the workspace root (unless allowed); each file is written to a
 * temporary file beside it and renamed over it, keeping its mode and, for a
 * symlink, writing its target; if any step fails, the steps already taken
 * are undone in reverse, so the files are as they were.
 */
import {
  chmodSync,
  mkdirSync,
  readFileSync,
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

const under = (path: string, root: string) => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);

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
    const changed =
      (f.version !== undefined && version !== undefined && f.version !== version) ||
      (f.before !== null && readNow(realOf(f.path)) !== f.before);
    if (changed) {
      throw new LspqError(
        'stale_edit',
        `${f.path} changed since the server computed the edit; nothing was written (run the command again)`,
      );
    }
  }
}

/** Writes the plan, or nothing: on any failure the steps taken are undone and the error says what failed. Returns the paths written. */
export function writePlan(plan: EditPlan, o: ApplyOptions): string[] {
  checkPlan(plan, o);
  const undo: Array<() => void> = [];
  const written: string[] = [];
  const step = (f: FileChange) => {
    const mode = modeOf(realOf(f.path));
    // A file without its owner's write permission says "leave me": replacing it by a rename would not ask.
    if (f.before !== null && mode !== undefined && (mode & 0o200) === 0)
      throw Object.assign(new Error('read-only'), { code: 'read-only' });
    if (f.before !== null && f.after !== null && f.after !== f.before) {
      writeWhole(f.path, f.after, mode);
      undo.push(() => writeWhole(f.path, f.before!, mode));
    } else if (f.before === null && f.after !== null) {
      writeWhole(f.path, f.after, undefined);
      undo.push(() => unlinkSync(f.path));
    }
    if (f.renamedTo !== undefined) {
      mkdirSync(dirname(f.renamedTo), { recursive: true });
      renameSync(f.path, f.renamedTo);
      undo.push(() => renameSync(f.renamedTo!, f.path));
    }
    if (f.after === null && f.before !== null) {
      unlinkSync(f.path);
      undo.push(() => writeWhole(f.path, f.before!, mode));
    }
    written.push(f.renamedTo ?? f.path);
  };
  for (const f of plan.files) {
    try {
      step(f);
    } catch (err) {
      const failed: string[] = [];
      for (const back of undo.reverse()) {
        try {
          back();
        } catch {
          failed.push('?');
        }
      }
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      const restored =
        failed.length === 0
          ? `nothing was changed${written.length ? ` (${written.length} file(s) written before it were restored)` : ''}`
          : 'some files could not be restored; check them with git diff';
      throw new LspqError('write_failed', `could not write ${f.path} (${why}); ${restored}`);
    }
  }
  return written;
}
