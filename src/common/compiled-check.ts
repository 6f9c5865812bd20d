/**
 * A shape's fast check, compiled from its one definition: the zod shape's
 * JSON Schema, compiled by ajv into a function that reads a value in place.
 * zod copies every object it checks (a 2,000-file rename's answer held the
 * daemon's thread 10-30 ms), so what can be long or comes on every warm
 * question is checked here first; where this check fails, zod checks the
 * value again to say what is wrong. Compiled once per shape, when first asked.
 */
import Ajv2020 from 'ajv/dist/2020';
import * as z from 'zod/mini';

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const compiled = new WeakMap<z.ZodMiniType, (value: unknown) => boolean>();

/** Whether `value` fits `shape`, as zod would judge it: an object of the shape's own keys only, as zod returns it. */
export function fits<T>(shape: z.ZodMiniType<T>, value: unknown): value is T {
  let check = compiled.get(shape);
  if (!check) {
    const schema = z.toJSONSchema(shape, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
    const validate = ajv.compile(schema);
    check = (v: unknown) => validate(v) === true;
    compiled.set(shape, check);
  }
  return check(value);
}
