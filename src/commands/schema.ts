/**
 * schema: the JSON Schema (draft 2020-12) of the --json answers, made from
 * the same zod schemas the renderers are typed by (render/json-shapes.ts),
 * so what it prints is what lspq writes. Each command's answer may also be
 * the error object.
 */
import * as z from 'zod/mini';
import { usage } from '../errors';
import { ANSWER_SHAPES, ErrorShape } from '../render/json-shapes';
import type { Run } from './context';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A command's answer or the error object, self-contained (its own $defs for recursive parts). */
export function commandSchema(name: keyof typeof ANSWER_SHAPES): Record<string, JsonValue> {
  return z.toJSONSchema(z.union([ANSWER_SHAPES[name], ErrorShape]), { target: 'draft-2020-12' }) as Record<
    string,
    JsonValue
  >;
}

/** Moves a schema's own $defs under `prefix.` names, its references with them, so several fit in one document. */
function hoist(schema: Record<string, JsonValue>, prefix: string, into: Record<string, JsonValue>): JsonValue {
  const rename = (value: JsonValue): JsonValue => {
    if (Array.isArray(value)) return value.map(rename);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', `#/$defs/${prefix}.`) : rename(v);
    }
    return out;
  };
  const { $schema: _dialect, $defs, ...rest } = schema;
  for (const [k, v] of Object.entries(($defs ?? {}) as Record<string, JsonValue>)) into[`${prefix}.${k}`] = rename(v);
  return rename(rest);
}

/** One document: a $defs entry for every command's answer, the batch line and the error object. */
export function wholeSchema(): Record<string, JsonValue> {
  const defs: Record<string, JsonValue> = {};
  for (const name of Object.keys(ANSWER_SHAPES) as (keyof typeof ANSWER_SHAPES)[]) {
    defs[name] = hoist(commandSchema(name), name, defs);
  }
  defs.error = hoist(
    z.toJSONSchema(ErrorShape, { target: 'draft-2020-12' }) as Record<string, JsonValue>,
    'error',
    defs,
  );
  return { $schema: DIALECT, title: 'lspq --json answers', $defs: defs };
}

const isShaped = (name: string): name is keyof typeof ANSWER_SHAPES => name in ANSWER_SHAPES;

export const schema: Run<'schema'> = async (args) => {
  const name = args.command;
  if (name !== undefined && !isShaped(name)) {
    throw usage(`no JSON answer is described for '${name}'; one of: ${Object.keys(ANSWER_SHAPES).join(' ')}`);
  }
  const document = name === undefined ? wholeSchema() : commandSchema(name);
  return { stdout: `${JSON.stringify(document, null, 2)}\n`, exit: 0 };
};
