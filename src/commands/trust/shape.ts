/** The --json answers of trust: the trusted repositories, or the one revoked. */
import * as z from 'zod/mini';

const TrustEntryShape = z.object({
  path: z.string(),
  configs: z.record(z.string(), z.string()),
  trusted: z.string(),
});
export const TrustShape = z.union([
  z.object({ trusted: z.array(TrustEntryShape), file: z.optional(z.string()) }),
  z.object({ revoked: z.nullable(z.string()) }),
  z.object({
    repository: z.string(),
    trusted: z.boolean(),
    /** Whether, untrusted, what it holds runs in a box on this machine; and the box, or why none. */
    contained: z.boolean(),
    box: z.string(),
    /** What trusting lets run, each with the workspace's files behind it, and the folder to trust where it lies above. */
    wouldRun: z.array(z.object({ what: z.string(), files: z.array(z.string()), trust: z.optional(z.string()) })),
  }),
]);
