/** The --json answer of hover. */
import * as z from 'zod/mini';
import { answered, SpanShape, sourced, TargetShape } from '../../answers/shapes';

export const HoverShape = z.object({
  target: TargetShape,
  ...answered,
  contents: z.string(),
  range: z.nullable(SpanShape),
  ...sourced,
});
