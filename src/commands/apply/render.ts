/** apply: diag --patch's lines and summary, then whether the patch was written. */
import type * as z from 'zod/mini';
import { displayPath } from '../../common/paths';
import { plural, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { diagJson, renderDiag, summaryLine } from '../diag/render';
import type { ApplyResult } from './question';
import type { ApplyShape } from './shape';

/** What the journal says of the edit once written, and the command after it: `applied fix.patch: 2 files written`. */
export function appliedSummary(names: readonly string[], files: number): string {
  return `applied ${names.join(', ')}: ${plural(files, 'file')} written`;
}

export function applyJson(r: ApplyResult, cwd: string): z.infer<typeof ApplyShape> {
  return { ...diagJson(r, cwd), written: r.written, changed: r.changed.map((p) => displayPath(p, cwd)) };
}

export function renderApply(r: ApplyResult, o: RenderOptions): Rendered {
  const shown = renderDiag(r, o);
  const outcome = r.written ? appliedSummary(r.names, r.changed.length) : 'nothing written';
  return { ...shown, stderr: `${summaryLine(r)}; ${outcome}` };
}
