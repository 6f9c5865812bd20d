/** One line of a batch's output. */
import * as z from 'zod/mini';
import { ErrorShape, int } from '../../answers/shapes';

/** One line of a batch's output: the command's own answer, or its error, with the exit code and the request's id. */
export const BatchLineShape = z.union([
  z.object({ id: z.optional(z.unknown()), exit: int, answer: z.record(z.string(), z.unknown()) }),
  z.object({ id: z.optional(z.unknown()), exit: int, error: ErrorShape.shape.error }),
]);
