/** The --json answer of diag. */
import * as z from 'zod/mini';
import {
  answered,
  cut,
  DiagnosticShape,
  int,
  ServerRootShape,
  SeverityShape,
  UncheckedShape,
  WithheldShape,
} from '../../answers/shapes';

const Counts = z.object({ error: int, warning: int, info: int, hint: int });

export const DiagShape = z.object({
  diagnostics: z.array(DiagnosticShape),
  /** Every diagnostic found, by severity, those not listed included. */
  summary: Counts,
  /** The least severity listed (--severity, default warning), and how many of those found are below it. */
  shown: SeverityShape,
  hidden: Counts,
  files: z.array(z.string()),
  ...cut,
  incomplete: z.array(z.string()),
  /** Files that could not be handed a server (binary, too large): left out, with why. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  /** The first server and root asked; `servers` lists every one. */
  ...answered,
  servers: z.array(ServerRootShape),
  /** Servers that ran in their untrusted mode, and the diagnostics they could not give so (exit 3). */
  withheld: z.array(WithheldShape),
  /** Files no installed server could check; `needed`: the answer is not whole without them (exit 3). */
  unchecked: z.array(UncheckedShape),
  /** With --all where TypeScript read the tsconfigs: the sources they leave out, and those under none. */
  tsconfig: z.optional(
    z.object({ leftOut: z.array(z.object({ path: z.string(), config: z.string() })), loose: z.array(z.string()) }),
  ),
  /** With --since: the revision compared with, and the diagnostics already present there (not counted in summary). */
  since: z.optional(z.object({ rev: z.string(), present: Counts })),
  /** With --patch: the files it touches, what it introduces, and the problems already there that are not listed. */
  patch: z.optional(z.object({ files: z.array(z.string()), introduced: Counts, present: Counts })),
  /** With a chain of patches: each, in order, what it introduced on top of those before it (not checked after one that fails). */
  steps: z.optional(
    z.array(
      z.object({ patch: z.string(), checked: z.boolean(), introduced: Counts, diagnostics: z.array(DiagnosticShape) }),
    ),
  ),
});
