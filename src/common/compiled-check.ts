/**
 * A shape's fast check, compiled from its one definition: the zod shape's
 * JSON Schema, compiled by ajv into a function that reads a value in place.
 * zod copies every object it checks (a 2,000-file rename's answer held the
 * daemon's thread 10-30 ms), so a server's answer, which can be long, is
 * checked here first; where this check fails, zod checks the value again
 * to say what is wrong. Compiled once per shape, when first asked (a small
 * message, the socket's envelope, is zod's: compiling costs 85-100 ms).
 */
import type Ajv2020 from 'ajv/dist/2020';
import * as z from 'zod/mini';

/** Loaded at the first check (30 ms): a daemon whose questions the indexes answer never needs it. */
let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<z.ZodMiniType, (value: unknown) => boolean>();

/** Whether `value` fits `shape`, as zod would judge it: an object of the shape's own keys only, as zod returns it. */
export function fits<T>(shape: z.ZodMiniType<T>, value: unknown): value is T {
  let check = compiled.get(shape);
  if (!check) {
    const schema = z.toJSONSchema(shape, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
    ajv ??= new (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default({
      strict: false,
      allErrors: false,
      validateFormats: false,
    });
    const validate = ajv.compile(schema);
    check = (v: unknown) => validate(v) === true;
    compiled.set(shape, check);
  }
  return check(value);
}
