/** The --json answers of hook: the agents' configurations, or what an edit introduced (hook run). */
import * as z from 'zod/mini';
import { DiagnosticShape, ServerRootShape, UncheckedShape, WithheldShape } from '../../answers/shapes';

export const HookShape = z.union([
  z.object({
    agents: z.array(
      z.object({ agent: z.string(), title: z.string(), file: z.string(), config: z.string(), how: z.string() }),
    ),
  }),
  z.object({
    kind: z.enum(['start', 'before', 'after', 'edited', 'stop', 'none']),
    compared: z.array(z.object({ path: z.string(), with: z.string() })),
    diagnostics: z.array(DiagnosticShape),
    incomplete: z.array(z.string()),
    withheld: z.array(WithheldShape),
    unchecked: z.array(UncheckedShape),
    servers: z.array(ServerRootShape),
  }),
]);
