/** The --json answer of mv. */
import * as z from 'zod/mini';
import { FileChangesShape, ServerRootShape, VerificationShape } from '../../answers/shapes';

export const MvShape = z.object({
  moves: z.array(z.object({ from: z.string(), to: z.string() })),
  files: z.array(FileChangesShape),
  applied: z.boolean(),
  servers: z.array(ServerRootShape),
  verification: z.optional(VerificationShape),
});
