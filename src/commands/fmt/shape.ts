/** The --json answer of fmt. */
import * as z from 'zod/mini';
import { answered, int, ServerRootShape } from '../../answers/shapes';

/** What decided a file's formatting: the project's formatter (its configuration, its program) or a server's. */
export const FmtFormatterShape = z.object({
  name: z.string(),
  by: z.enum(['project', 'server']),
  config: z.optional(z.string()),
  binary: z.optional(z.string()),
  /** The formatter a server runs (gopls: gofmt). */
  runs: z.optional(z.string()),
  /** The project's formatter, left out here (not trusted, no box): the server's formatted instead. */
  passedOver: z.optional(z.object({ name: z.string(), config: z.string() })),
});

export const FmtShape = z.object({
  files: z.array(z.object({ path: z.string(), changed: z.boolean(), edits: int, lines: int, formatter: z.string() })),
  formatters: z.array(FmtFormatterShape),
  written: z.boolean(),
  // Who answered: a server and its root, or the project's formatter and the folder it ran in (its configuration's).
  ...answered,
  servers: z.array(ServerRootShape),
});
