/** The --json answer of actions. */
import * as z from 'zod/mini';
import { answered, cut, int, ServerRootShape, Span, VerificationShape } from '../../answers/shapes';

export const ActionsShape = z.object({
  path: z.string(),
  ...Span,
  ...answered,
  servers: z.array(ServerRootShape),
  actions: z.array(
    z.object({
      index: int,
      /** Derived from the server, title, kind and edit offered: `--apply ID` applies this one, whatever its number. */
      id: z.string(),
      title: z.string(),
      kind: z.string(),
      preferred: z.boolean(),
      edits: z.array(z.object({ path: z.string(), changes: int })),
      disabled: z.optional(z.string()),
      server: z.string(),
    }),
  ),
  ...cut,
  hidden: int,
  applied: z.nullable(
    z.object({
      index: int,
      id: z.string(),
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
