/** actions: the numbered list; after --apply, the diff (dry run) or the files written. */
import type * as z from 'zod/mini';
import { unifiedDiff } from '../../render/diff';
import { verificationJson, verified, writtenLines } from '../../render/written';
import { cutLine, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { ActionsResult } from './question';
import type { ActionsShape } from './shape';

export function actionsJson(r: ActionsResult, cwd: string): z.infer<typeof ActionsShape> {
  return {
    path: displayPath(r.path, cwd),
    ...r.span,
    server: r.server,
    root: r.root,
    servers: r.servers,
    actions: r.actions.map((a) => ({ ...a, edits: a.edits.map((e) => ({ ...e, path: displayPath(e.path, cwd) })) })),
    total: r.total,
    truncated: r.truncated,
    hidden: r.hidden,
    applied: r.applied && {
      index: r.applied.index,
      id: r.applied.id,
      title: r.applied.title,
      server: r.applied.server,
      files: r.applied.files.map((f) => displayPath(f.renamedTo ?? f.path, cwd)),
      written: r.applied.written,
      urls: r.applied.urls,
      ...verificationJson(r.applied.verification, cwd),
    },
  };
}

/** Whether applying did anything: a file changed, or a page the server asked to show. */
export function didSomething(applied: NonNullable<ActionsResult['applied']>): boolean {
  return applied.files.length > 0 || applied.urls.length > 0;
}

/** The numbered list (`1  kxqmtr  quickfix  Add import ... (preferred)`); after --apply, the diff (dry run) or the files written. */
export function renderActions(r: ActionsResult, o: RenderOptions): Rendered {
  const c = o.colors;
  // An action that changed nothing is said by the command's one line for it (exit 1).
  if (r.applied && !didSomething(r.applied)) return { stdout: '' };
  if (r.applied) {
    const note = `${r.applied.written ? 'applied' : 'would apply'} ${r.applied.index}: ${r.applied.title}`;
    const urls = r.applied.urls.map((u) => `${u}\n`).join('');
    const out = {
      stdout:
        (r.applied.written ? writtenLines(r.applied.files, o.cwd) : unifiedDiff(r.applied.files, r.applied.patchTop)) +
        urls,
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
    return `${String(a.index).padStart(width)}  ${c.yellow(a.id)}  ${c.cyan(a.kind || '-')}  ${a.title}${tags ? c.dim(` (${tags})`) : ''}\n`;
  });
  // With none shown, the line that says so names the hidden ones (command.ts).
  const hidden =
    r.hidden > 0 && r.actions.length > 0
      ? `${r.hidden} disabled action${r.hidden === 1 ? '' : 's'} not shown; --all lists them with why`
      : undefined;
  return {
    stdout: lines.join(''),
    ...(hidden ? { warning: hidden } : {}),
    ...(r.truncated ? { cut: cutLine(r.actions.length, r.total) } : {}),
  };
}
