/** The --json answer of def, typedef, impls and refs. */
import * as z from 'zod/mini';
import { answered, cut, LocationShape, sourced, TargetShape } from '../../answers/shapes';

export const LocationsShape = z.object({
  target: TargetShape,
  ...answered,
  locations: z.array(LocationShape),
  ...cut,
  ...sourced,
  /** Go's other build configurations asked besides this one. */
  builds: z.optional(z.array(z.string())),
  /** Files that write the name that no build configuration asked compiles: not searched (exit 3). */
  unsearched: z.optional(z.array(z.string())),
  /** Why they were not searched, and what would search them. */
  unsearchedBecause: z.optional(z.string()),
  /** What an index's answer may lack that the live server would give (exit 3). */
  partial: z.optional(z.string()),
});
