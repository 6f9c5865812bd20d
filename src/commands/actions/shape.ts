/** The --json answer of actions. */
import * as z from 'zod/mini';
import { answered, int, ServerRootShape, Span, VerificationShape } from '../../answers/shapes';

export const ActionsShape = z.object({
  path: z.string(),
  ...Span,
  ...answered,
  servers: z.array(ServerRootShape),
  actions: z.array(
    z.object({
      index: int,
      title: z.string(),
      kind: z.string(),
      preferred: z.boolean(),
      edits: z.array(z.object({ path: z.string(), changes: int })),
      disabled: z.optional(z.string()),
      server: z.string(),
    }),
  ),
  hidden: int,
  applied: z.nullable(
    z.object({
      index: int,
      title: z.string(),
      server: z.string(),
      files: z.array(z.string()),
      written: z.boolean(),
      /** Pages the action's command asked to show (gopls's documentation): addresses to open. */
      urls: z.array(z.string()),
      verification: z.optional(VerificationShape),
    }),
  ),
});
