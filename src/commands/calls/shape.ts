/** The --json answers of calls: a call tree, or the call chains of --to. */
import * as z from 'zod/mini';
import { answered, ContextShape, cut, EnclosingShape, int, SpanShape } from '../../answers/shapes';

export const CallItemShape = z.object({
  name: z.string(),
  kind: z.string(),
  path: z.string(),
  line: int,
  column: int,
  detail: z.optional(z.string()),
  /** The symbol it is declared in (a method's class). */
  in: z.optional(EnclosingShape),
});

interface CallNodeJson {
  item: z.infer<typeof CallItemShape>;
  ranges: z.infer<typeof SpanShape>[];
  context?: z.infer<typeof ContextShape>;
  calls: CallNodeJson[];
}
export const CallNodeShape: z.ZodMiniType<CallNodeJson> = z.object({
  item: CallItemShape,
  ranges: z.array(SpanShape),
  context: z.optional(ContextShape),
  get calls() {
    return z.array(CallNodeShape);
  },
});

export const CallsShape = z.object({
  item: CallItemShape,
  direction: z.enum(['incoming', 'outgoing']),
  ...answered,
  calls: z.array(CallNodeShape),
  ...cut,
  /** Go's other build configurations asked besides this one. */
  builds: z.optional(z.array(z.string())),
  /** Files that name the function that no build configuration asked compiles: not searched (exit 3). */
  unsearched: z.optional(z.array(z.string())),
});

export const CallPathShape = z.object({
  from: CallItemShape,
  to: CallItemShape,
  ...answered,
  chains: z.array(z.array(z.object({ caller: CallItemShape, callee: CallItemShape, ranges: z.array(SpanShape) }))),
  ...cut,
});
