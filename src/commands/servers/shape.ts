/** The --json answers of servers and servers --for. */
import * as z from 'zod/mini';

export const ServersShape = z.object({
  servers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      languages: z.array(z.string()),
      found: z.boolean(),
      command: z.optional(z.string()),
      foundBy: z.optional(z.string()),
      version: z.optional(z.string()),
      install: z.string(),
      roots: z.array(z.string()),
      /** Binaries of it the repository carries that were left out, not trusted. */
      untrusted: z.optional(z.array(z.string())),
    }),
  ),
  /** The repository's own .lsp.json, left out until trusted. */
  untrusted: z.array(z.string()),
  /** How a workspace not trusted runs here: `contained (bubblewrap, ...)`, or `not contained: why`. */
  box: z.string(),
});

export const ServersForShape = z.object({
  file: z.string(),
  servers: z.array(
    z.object({
      id: z.string(),
      root: z.string(),
      path: z.string(),
      foundBy: z.string(),
      /** How it runs: as the user's own code (trusted), in its untrusted mode, or as configured in the box. */
      runs: z.enum(['trusted', 'restricted', 'contained']),
      python: z.optional(z.string()),
      version: z.optional(z.string()),
      known: z.object({
        from: z.enum(['running', 'remembered', 'declared']),
        at: z.optional(z.string()),
      }),
      answers: z.record(z.string(), z.boolean()),
      paid: z.optional(z.object({ commands: z.array(z.string()), how: z.string() })),
      diagnostics: z.string(),
      withoutPlugins: z.optional(
        z.array(z.object({ plugin: z.string(), unsearched: z.array(z.string()), install: z.string() })),
      ),
    }),
  ),
  missing: z.array(z.object({ id: z.string(), install: z.string() })),
  /** The workspace's own code left out for the file, not trusted. */
  untrusted: z.array(z.string()),
  /** Installed, but not for this file, and why. */
  notUsed: z.array(z.object({ id: z.string(), why: z.string() })),
  /** How a workspace not trusted runs here: `contained (bubblewrap, ...)`, or `not contained: why`. */
  box: z.string(),
});
