/**
 * The box's rules (rules.ts) as a zod schema: what `lspq __box` is given is
 * this, and when its fast guard (box-entry.ts) refuses a value, this says
 * why. Loaded only then: zod costs the box's start 4 ms.
 */
import { z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import type { BoxRules } from './rules';

const path = z.string().check(z.minLength(1));

export const BoxRulesShape = z.strictObject({
  read: z.array(path),
  write: z.array(path),
  network: z.boolean(),
});

// The schema and the interface stay one shape: this fails to compile when they part.
const sameShape: z.infer<typeof BoxRulesShape> extends BoxRules
  ? BoxRules extends z.infer<typeof BoxRulesShape>
    ? true
    : false
  : false = true;
void sameShape;

/** Why `value` is not a box's rules, in zod's words; undefined when it is. */
export function whyNotRules(value: unknown): string | undefined {
  // zod's mini build says only "Invalid input" until given its English words.
  z.config(en());
  const parsed = BoxRulesShape.safeParse(value);
  return parsed.success ? undefined : z.prettifyError(parsed.error).replaceAll('\n', '; ');
}
