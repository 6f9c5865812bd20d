/** The --json answer of index. */
import * as z from 'zod/mini';
import { int } from '../../answers/shapes';

export const IndexShape = z.object({
  file: z.string(),
  root: z.string(),
  documents: int,
  bytes: int,
  indexers: z.array(z.object({ name: z.string(), ms: int })),
  commit: z.optional(z.string()),
  url: z.optional(z.string()),
  table: z.optional(z.object({ file: z.string(), ms: int })),
});
