/** The --json answer of def, typedef, impls and refs. */
import * as z from 'zod/mini';
import { answered, cut, LocationShape, sourced, TargetShape } from '../../answers/shapes';

export const LocationsShape = z.object({
  target: TargetShape,
  ...answered,
  locations: z.array(LocationShape),
  ...cut,
  ...sourced,
});
