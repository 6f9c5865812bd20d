/** The --json answer of fmt. */
import * as z from 'zod/mini';
import { answered, int, ServerRootShape } from '../../answers/shapes';

export const FmtShape = z.object({
  files: z.array(z.object({ path: z.string(), changed: z.boolean(), edits: int, lines: int })),
  written: z.boolean(),
  ...answered,
  servers: z.array(ServerRootShape),
});
