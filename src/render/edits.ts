/**
 * fmt, rename and actions: a diff where an edit is shown, the files where
 * one was written, and the contract's JSON. Pure.
 */
import type { ActionsResult, FileEdit, FmtResult, MvResult, RenameResult, Verification } from '../queries';
import { renderDiag } from './diag';
import { changedLines, unifiedDiff } from './diff';
import type { ActionsShape, FmtShape, MvShape, RenameShape } from './json-shapes';
import { locationJson, targetJson } from './locations';
import type * as z from 'zod/mini';
import { displayPath } from '../protocol/paths';
import type { RenderOptions } from './style';
import type { Rendered } from './types';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line per file written: `path: N edits` (`old -> new` for a renamed file). */
function writtenLines(files: readonly FileEdit[], cwd: string): string {
  return files
    .map((f) => {
      const path = displayPath(f.path, cwd);
      const what = f.before === null ? 'created' : f.after === null ? 'deleted' : plural(f.changes, 'edit');
      return `${f.renamedTo ? `${path} -> ${displayPath(f.renamedTo, cwd)}` : path}: ${what}\n`;
    })
    .join('');
}

const verificationJson = (v: Verification | undefined, cwd: string) =>
  v ? { verification: { ...v, introduced: v.introduced.map((d) => ({ ...d, path: displayPath(d.path, cwd) })) } } : {};

/**
 * --verify's word on an edit: put back, with the errors it introduced as
 * diag prints them (the answer's stdout); or kept, and said so.
 */
function verified(out: Rendered, v: Verification | undefined, what: string, o: RenderOptions): Rendered {
  if (!v) return out;
  if (!v.reverted) return { ...out, stderr: `${out.stderr ?? what}; verified: it introduced no error` };
  const lines = renderDiag(
    {
      diagnostics: v.introduced,
      summary: { error: 0, warning: 0, info: 0, hint: 0 },
      files: [],
      total: 0,
      truncated: false,
      incomplete: [],
      skipped: [],
      answered: [],
    },
    o,
  ).stdout;
  return {
    stdout: lines,
    stderr: `${what} introduced ${plural(v.introduced.length, 'error')}; every file was put back as it was`,
  };
}

const editsJson = (files: readonly FileEdit[], cwd: string) =>
  files.map((f) => ({
    path: displayPath(f.path, cwd),
    changes: f.changes,
    ...(f.renamedTo ? { newPath: displayPath(f.renamedTo, cwd) } : {}),
  }));

export function fmtJson(r: FmtResult, cwd: string): z.infer<typeof FmtShape> {
  return {
    files: r.files.map((f) => ({
      path: displayPath(f.path, cwd),
      changed: f.changed,
      edits: f.edits,
      lines: changedLines(f.before, f.after),
    })),
    written: r.written,
    server: r.answered[0]?.server ?? '',
    root: r.answered[0]?.root ?? '',
    servers: r.answered,
  };
}

/** The diff of what formatting changes; with --write, the files rewritten; with --check, the files that would change. */
export function renderFmt(r: FmtResult, o: RenderOptions, mode: 'diff' | 'write' | 'check'): Rendered {
  const changed = r.files.filter((f) => f.changed);
  if (mode === 'check') return { stdout: changed.map((f) => `${displayPath(f.path, o.cwd)}\n`).join('') };
  if (mode === 'write') {
    const lines = changed.map(
      (f) => `${displayPath(f.path, o.cwd)}: ${plural(changedLines(f.before, f.after), 'line')} changed\n`,
    );
    return { stdout: lines.join('') };
  }
  return {
    stdout: unifiedDiff(
      changed.map((f) => ({ path: f.path, changes: f.edits, before: f.before, after: f.after })),
      o.cwd,
    ),
  };
}

export function renameJson(r: RenameResult, cwd: string): z.infer<typeof RenameShape> {
  return {
    target: targetJson(r.target, cwd),
    server: r.server,
    root: r.root,
    newName: r.newName,
    files: editsJson(r.files, cwd),
    applied: r.applied,
    unrenamed: r.unrenamed.map((l) => locationJson(l, cwd)),
    ...verificationJson(r.verification, cwd),
  };
}

/** The old name still written in files the server did not rename: where, a few of them. */
function unrenamedNote(r: RenameResult, cwd: string): string | undefined {
  if (r.unrenamed.length === 0) return undefined;
  const at = r.unrenamed.slice(0, 5).map((l) => `${displayPath(l.path, cwd)}:${l.line}:${l.column}`);
  const more = r.unrenamed.length > 5 ? `, and ${r.unrenamed.length - 5} more` : '';
  const old = r.target.symbol ?? 'the old name';
  return `'${old}' is still written in files ${r.server} did not rename (outside what it knows, such as an inactive #ifdef): ${at.join(', ')}${more}`;
}

export function renderRename(r: RenameResult, o: RenderOptions): Rendered {
  return verified(renameOutput(r, o), r.verification, `the rename to '${r.newName}'`, o);
}

function renameOutput(r: RenameResult, o: RenderOptions): Rendered {
  const warning = unrenamedNote(r, o.cwd);
  if (!r.applied) return { stdout: unifiedDiff(r.files, o.cwd), ...(warning ? { warning } : {}) };
  const edits = r.files.reduce((n, f) => n + f.changes, 0);
  return {
    stdout: writtenLines(r.files, o.cwd),
    stderr: `renamed to '${r.newName}': ${plural(edits, 'edit')} in ${plural(r.files.length, 'file')}`,
    ...(warning ? { warning } : {}),
  };
}

export function actionsJson(r: ActionsResult, cwd: string): z.infer<typeof ActionsShape> {
  return {
    path: displayPath(r.path, cwd),
    ...r.span,
    server: r.server,
    root: r.root,
    servers: r.servers,
    actions: r.actions.map((a) => ({ ...a, edits: a.edits.map((e) => ({ ...e, path: displayPath(e.path, cwd) })) })),
    hidden: r.hidden,
    applied: r.applied && {
      index: r.applied.index,
      title: r.applied.title,
      server: r.applied.server,
      files: r.applied.files.map((f) => displayPath(f.renamedTo ?? f.path, cwd)),
      written: r.applied.written,
      urls: r.applied.urls,
      ...verificationJson(r.applied.verification, cwd),
    },
  };
}

/** The numbered list (`1  quickfix  Add import ... (preferred)`); after --apply, the diff (dry run) or the files written. */
export function renderActions(r: ActionsResult, o: RenderOptions): Rendered {
  const c = o.colors;
  if (r.applied) {
    const note = `${r.applied.written ? 'applied' : 'would apply'} ${r.applied.index}: ${r.applied.title}`;
    const urls = r.applied.urls.map((u) => `${u}\n`).join('');
    const out = {
      stdout: (r.applied.written ? writtenLines(r.applied.files, o.cwd) : unifiedDiff(r.applied.files, o.cwd)) + urls,
      stderr: urls && r.applied.files.length === 0 ? `${note} (open the address it gave)` : note,
    };
    return verified(out, r.applied.verification, `code action ${r.applied.index} ('${r.applied.title}')`, o);
  }
  const width = String(Math.max(0, ...r.actions.map((a) => a.index))).length;
  // Several servers asked: each action names its own.
  const several = r.servers.length > 1;
  const lines = r.actions.map((a) => {
    const tags = [several ? a.server : '', a.preferred ? 'preferred' : '', a.disabled ? `disabled: ${a.disabled}` : '']
      .filter(Boolean)
      .join(', ');
    return `${String(a.index).padStart(width)}  ${c.cyan(a.kind || '-')}  ${a.title}${tags ? c.dim(` (${tags})`) : ''}\n`;
  });
  const hidden =
    r.hidden > 0
      ? `${r.hidden} disabled action${r.hidden === 1 ? '' : 's'} not shown; --all lists them with why`
      : undefined;
  return { stdout: lines.join(''), ...(hidden ? { warning: hidden } : {}) };
}

export function mvJson(r: MvResult, cwd: string): z.infer<typeof MvShape> {
  return {
    moves: r.moves.map((m) => ({ from: displayPath(m.from, cwd), to: displayPath(m.to, cwd) })),
    files: editsJson(r.files, cwd),
    applied: r.applied,
    servers: r.servers,
    ...verificationJson(r.verification, cwd),
  };
}

/** The diff of the edits and the move (dry run), or the files written and what moved. */
export function renderMv(r: MvResult, o: RenderOptions): Rendered {
  const moves = r.moves.map((m) => `${displayPath(m.from, o.cwd)} -> ${displayPath(m.to, o.cwd)}`).join(', ');
  const edits = r.files.reduce((n, f) => n + f.changes, 0);
  const updated = r.files.length ? `; ${plural(edits, 'edit')} in ${plural(r.files.length, 'file')}` : '';
  if (!r.applied) return { stdout: unifiedDiff(r.files, o.cwd), stderr: `would move ${moves}${updated}` };
  const out = { stdout: writtenLines(r.files, o.cwd), stderr: `moved ${moves}${updated}` };
  return verified(out, r.verification, `the move of ${moves}`, o);
}
