/**
 * What the commands that edit (fmt, rename, actions, mv) show alike: the
 * files written, --verify's word, the files of the JSON answer. Pure.
 */
import type { FileEdit, Verification } from '../answers/edits';
import { displayPath } from '../common/paths';
import { diagnosticLines } from './diagnostic-lines';
import { plural, type RenderOptions } from './style';
import type { Rendered } from './rendered';

/** One line per file written: `path: N edits` (`old -> new` for a renamed file). */
export function writtenLines(files: readonly FileEdit[], cwd: string): string {
  return files
    .map((f) => {
      const path = displayPath(f.path, cwd);
      const what = f.before === null ? 'created' : f.after === null ? 'deleted' : plural(f.changes, 'edit');
      return `${f.renamedTo ? `${path} -> ${displayPath(f.renamedTo, cwd)}` : path}: ${what}\n`;
    })
    .join('');
}

export const verificationJson = (v: Verification | undefined, cwd: string) =>
  v
    ? {
        verification: {
          ...v,
          introduced: v.introduced.map((d) => ({ ...d, path: displayPath(d.path, cwd) })),
          ...(v.incomplete ? { incomplete: v.incomplete.map((p) => displayPath(p, cwd)) } : {}),
        },
      }
    : {};

/**
 * --verify's word on an edit: put back, with the errors it introduced as
 * diag prints them (the answer's stdout); or kept, and said so. A dry run's
 * (--dry-run --verify): its diff on stdout whatever it found (a patch
 * piped to a file or `git apply` stays one), and the errors it would
 * introduce listed under its word on stderr, where they are seen then.
 */
export function verified(out: Rendered, v: Verification | undefined, what: string, o: RenderOptions): Rendered {
  if (!v) return out;
  const dry = v.written === false;
  if (v.introduced.length === 0 && v.incomplete?.length) {
    const files = v.incomplete.map((p) => displayPath(p, o.cwd)).join(', ');
    const why = dry
      ? "its check reads the disk, not text held in memory: rust-analyzer's cargo check); nothing written"
      : "its check reads the disk and has errors there: rust-analyzer's cargo check); kept as written, 'lspq diag' them";
    return {
      ...out,
      stderr: `${out.stderr ?? what}; not verified: the diagnostics of ${files} cannot be compared (a server did not finish in time, or ${why}`,
    };
  }
  if (dry && v.introduced.length === 0)
    return {
      ...out,
      stderr: `${out.stderr ?? what}; verified in memory: it would introduce no error; nothing written`,
    };
  if (dry)
    return {
      ...out,
      stderr: `${what} would introduce ${plural(v.introduced.length, 'error')}; nothing was written:\n${diagnosticLines(v.introduced, o).trimEnd()}`,
    };
  if (!v.reverted) return { ...out, stderr: `${out.stderr ?? what}; verified: it introduced no error` };
  return {
    stdout: diagnosticLines(v.introduced, o),
    stderr: `${what} introduced ${plural(v.introduced.length, 'error')}; every file was put back as it was`,
  };
}

export const editsJson = (files: readonly FileEdit[], cwd: string) =>
  files.map((f) => ({
    path: displayPath(f.path, cwd),
    changes: f.changes,
    ...(f.renamedTo ? { newPath: displayPath(f.renamedTo, cwd) } : {}),
  }));
