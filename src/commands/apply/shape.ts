/** The --json answer of apply: diag --patch's, and whether the patch was written. */
import * as z from 'zod/mini';
import { DiagShape } from '../diag/shape';

export const ApplyShape = z.extend(DiagShape, {
  /** Whether the files were written: every patch checked clean at --fail-on, and not --dry-run. */
  written: z.boolean(),
  /** The files the patches change (written, or that would be), each once. */
  changed: z.array(z.string()),
});
