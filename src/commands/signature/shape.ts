/** The --json answer of signature. */
import * as z from 'zod/mini';
import { answered, int, TargetShape } from '../../answers/shapes';

const ParameterShape = z.object({ label: z.string(), documentation: z.string() });

export const SignatureShape = z.object({
  target: TargetShape,
  ...answered,
  signatures: z.array(z.object({ label: z.string(), documentation: z.string(), parameters: z.array(ParameterShape) })),
  active: z.nullable(z.object({ signature: int, parameter: z.nullable(int) })),
});
