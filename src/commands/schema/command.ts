/**
 * schema: the JSON Schema (draft 2020-12) of the --json answers, made from
 * the same zod schemas the renderers are typed by (each command's shape.ts),
 * so what it prints is what lspq writes. Each command's answer may also be
 * the error object.
 */
import * as z from 'zod/mini';
import { ErrorShape, withNotesField } from '../../answers/shapes';
import { usage } from '../../common/errors';
import { defineCommand, type Listed } from '../define';
import { serverArgs } from '../common-args';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A command's answer or the error object, self-contained (its own $defs for recursive parts). */
export function commandSchema(shape: z.ZodMiniType): Record<string, JsonValue> {
  // What toJSONSchema makes is JSON; its declared type (JSON Schema's keywords) does not say so.
  return z.toJSONSchema(withNotesField(z.union([shape, ErrorShape])), { target: 'draft-2020-12' }) as Record<
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
  const defs = $defs !== null && typeof $defs === 'object' && !Array.isArray($defs) ? $defs : {};
  for (const [k, v] of Object.entries(defs)) into[`${prefix}.${k}`] = rename(v);
  return rename(rest);
}

/** One document: a $defs entry for every command's answer, the batch line and the error object. */
export function wholeSchema(commands: Readonly<Record<string, Listed>>): Record<string, JsonValue> {
  const defs: Record<string, JsonValue> = {};
  for (const [name, command] of Object.entries(commands))
    if (command.shape) defs[name] = hoist(commandSchema(command.shape), name, defs);
  defs.error = hoist(
    // JSON, as in commandSchema.
    z.toJSONSchema(ErrorShape, { target: 'draft-2020-12' }) as Record<string, JsonValue>,
    'error',
    defs,
  );
  return { $schema: DIALECT, title: 'lspq --json answers', $defs: defs };
}

export const schema = defineCommand({
  summary: "the JSON Schema of every --json answer, or of COMMAND's",
  // The common flags are taken by every command, though a schema is JSON whatever they say.
  args: {
    ...serverArgs,
    command: {
      type: 'positional',
      required: false,
      description: 'The command whose answer to describe',
      valueHint: 'COMMAND',
    },
  },
  examples: ['lspq schema', 'lspq schema def'],
  process: 'here',
  run: async (args, { commands }) => {
    const name = args.command;
    const shaped = Object.keys(commands).filter((n) => commands[n]?.shape);
    const shape = name === undefined ? undefined : commands[name]?.shape;
    if (name !== undefined && !shape)
      throw usage(`no JSON answer is described for '${name}'; one of: ${shaped.join(' ')}`);
    const document = shape ? commandSchema(shape) : wholeSchema(commands);
    return { stdout: `${JSON.stringify(document, null, 2)}\n`, exit: 0 };
  },
});
