/**
 * lspq's commands as MCP tools, from the command table: one tool per
 * question (def refs hover impls typedef symbols calls diag) and per edit
 * (rename mv actions fmt, a dry run unless `apply: true`). A tool's input
 * is the command's positional words and flags by name; its output schema
 * is the command's --json shape. Turning a call's arguments into a command
 * line checks each of them against that input first. Pure.
 */
import type { ArgDef } from 'citty';
import * as z from 'zod/mini';
import type { Listed } from '../command';

export const QUESTION_TOOLS = ['def', 'refs', 'hover', 'impls', 'typedef', 'symbols', 'calls', 'diag'] as const;
export const EDIT_TOOLS = ['rename', 'mv', 'actions', 'fmt'] as const;
type ToolName = (typeof QUESTION_TOOLS)[number] | (typeof EDIT_TOOLS)[number];

/** Flags a tool does not take: the output is always both renderings, and every call goes through the daemon. */
const LEFT_OUT = new Set(['json', 'daemon', 'dry-run', 'write', 'check']);

type JsonSchema = Record<string, unknown>;

interface Input {
  /** The command's own name for it. */
  key: string;
  /** The tool's name for it: the command's, but for actions' --apply N, which is `action` here. */
  name: string;
  kind: 'positional' | 'words' | 'string' | 'boolean';
  schema: JsonSchema;
}

export interface ToolModel {
  name: ToolName;
  description: string;
  inputs: Input[];
  writes: boolean;
  outputSchema?: JsonSchema;
}

const EDIT_NOTE = ' Without apply: true this is a dry run: the diff, nothing written.';

function inputOf(key: string, def: ArgDef, variadic: boolean, values: readonly string[] | undefined): Input {
  const description = def.description ?? '';
  const valueEnum = values ? { enum: [...values] } : {};
  // actions' --apply N is the action's number here: `apply` is every edit tool's yes to writing.
  const name = key === 'apply' ? 'action' : key;
  if (def.type === 'positional')
    return variadic
      ? { key, name, kind: 'words', schema: { type: 'array', items: { type: 'string' }, description } }
      : { key, name, kind: 'positional', schema: { type: 'string', description, ...valueEnum } };
  if (def.type === 'boolean') return { key, name, kind: 'boolean', schema: { type: 'boolean', description } };
  return { key, name, kind: 'string', schema: { type: 'string', description, ...valueEnum } };
}

export function toolModels(
  commands: Readonly<Record<string, Listed>>,
  outputSchema: (shape: NonNullable<Listed['shape']>) => JsonSchema,
): ToolModel[] {
  return [...QUESTION_TOOLS, ...EDIT_TOOLS].map((name) => {
    const c = commands[name]!;
    const writes = (EDIT_TOOLS as readonly string[]).includes(name);
    const inputs = Object.entries(c.args)
      .filter(([key]) => !LEFT_OUT.has(key))
      .map(([key, def]) => inputOf(key, def as ArgDef, c.variadic === true, c.values?.[key]));
    return {
      name,
      description: `${c.summary}.${writes ? EDIT_NOTE : ''} Targets: FILE:LINE:COL or FILE:LINE:NAME, paths from cwd.`,
      inputs,
      writes,
      ...(c.shape ? { outputSchema: outputSchema(c.shape) } : {}),
    };
  });
}

/** The tool's input schema: its inputs by name, `cwd` (where paths start), and `apply` for edits. */
export function inputSchema(tool: ToolModel): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    cwd: { type: 'string', description: 'The folder paths start from (default: where the MCP server started)' },
  };
  for (const i of tool.inputs) properties[i.name] = i.schema;
  if (tool.writes) properties.apply = { type: 'boolean', description: 'Write the edit (default: a dry run)' };
  return { type: 'object', properties, additionalProperties: false };
}

/** A call's arguments checked against the tool's input: a value of the wrong type is a one-line error. */
function checker(tool: ToolModel) {
  const shape: Record<string, z.ZodMiniType> = { cwd: z.optional(z.string()) };
  for (const i of tool.inputs)
    shape[i.name] = z.optional(
      i.kind === 'words' ? z.array(z.string()) : i.kind === 'boolean' ? z.boolean() : z.string(),
    );
  if (tool.writes) shape.apply = z.optional(z.boolean());
  return z.strictObject(shape);
}

/** The command line a call asks: positional words in the command's order, then its flags; or what is wrong. */
export function commandWords(
  tool: ToolModel,
  args: unknown,
): { ok: true; words: string[]; applying: boolean; cwd?: string } | { ok: false; why: string } {
  const parsed = checker(tool).safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, why: `${issue.path.join('.') || 'arguments'}: ${issue.message}` };
  }
  const given = parsed.data as Record<string, string | boolean | string[] | undefined>;
  const positionals: string[] = [];
  const flags: string[] = [];
  for (const i of tool.inputs) {
    const value = given[i.name];
    if (value === undefined || value === false) continue;
    if (i.kind === 'positional') positionals.push(value as string);
    else if (i.kind === 'words') positionals.push(...(value as string[]));
    else if (i.kind === 'boolean') flags.push(`--${i.key}`);
    else flags.push(`--${i.key}`, value as string);
  }
  // An edit writes only with apply: true (and, for actions, an action chosen); anything else is a dry run,
  // said to the command in so many words, so that no other input can make it write.
  const chosen = tool.name !== 'actions' || given.action !== undefined || given['apply-preferred'] === true;
  const applying = tool.writes && given.apply === true && chosen;
  if (applying && tool.name === 'fmt') flags.push('--write');
  if (!applying && tool.writes && tool.name !== 'fmt' && chosen) flags.push('--dry-run');
  // Positional words come after `--`: a word such as '--write' is a file's name, never a flag.
  const words = [tool.name, ...flags, '--', ...positionals];
  return { ok: true, words, applying, ...(given.cwd ? { cwd: given.cwd as string } : {}) };
}
