/** The --json answer of rename. */
import * as z from 'zod/mini';
import { answered, FileChangesShape, LocationShape, TargetShape, VerificationShape } from '../../answers/shapes';

export const RenameShape = z.object({
  target: TargetShape,
  ...answered,
  newName: z.string(),
  files: z.array(FileChangesShape),
  applied: z.boolean(),
  /** Places in files the edit did not touch that still write the old name. */
  unrenamed: z.array(LocationShape),
  verification: z.optional(VerificationShape),
  /** Go's other build configurations whose files were renamed too. */
  builds: z.optional(z.array(z.string())),
});
