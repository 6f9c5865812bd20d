/**
 * lspq's commands as MCP tools, from the command table: one tool for each
 * command that declares one (`mcp` in its declaration), a question or an
 * edit (a dry run unless `apply: true`). A tool's input
 * is the command's positional words and flags by name; its output schema
 * names the command's --json shape (`lspq schema NAME` prints it). What
 * several tools take is said once, in the server's instructions: the list
 * of tools is read before a session's first question, every time. Turning
 * a call's arguments into a command line checks each of them against that
 * input first. Pure.
 */
import type { ArgDef } from 'citty';
import * as z from 'zod/mini';
import type { Listed } from '../define';
import { type McpTool, MCP_WRITE as WRITE } from '../declaration';
import { namesLine, targetPath } from '../../common/target';
import { declarationArgs, editArgs } from '../common-args';

/**
 * Flags a tool does not take: the output is always both renderings (so no
 * diag --format, which --json refuses), every
 * call goes through the daemon, and an edit's own dry-run or write flag is
 * its apply: true (each edit's declaration names it); fmt's --check is a dry run.
 * The workspace is the MCP server's, pinned when it started: no call names
 * another root or lets an edit out of it.
 */
const LEFT_OUT = new Set(['json', 'format', 'daemon', 'check', 'root', 'allow-outside']);

/** The inputs that name files (a target's file, a file, a folder to move), and how to read the path out of each. */
const PATH_INPUTS: Record<string, 'target' | 'path' | 'target-or-name'> = {
  target: 'target',
  file: 'path',
  files: 'path',
  old: 'path',
  new: 'path',
  index: 'path',
  to: 'target-or-name',
};

/**
 * The paths a call names, as written (relative ones from the pinned
 * workspace); a target's file as the command's own parser reads it
 * (targetPath), so the check and the read agree on which file it is.
 */
export function pathsOfCall(tool: ToolModel, args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const i of tool.inputs) {
    const how = PATH_INPUTS[i.key] ?? (i.key === 'input' && args.workspace !== true ? 'path' : undefined);
    const value = args[i.name];
    if (!how || value === undefined) continue;
    for (const raw of Array.isArray(value) ? value : [value]) {
      if (typeof raw !== 'string') continue;
      if (how === 'path') out.push(raw);
      else if (how === 'target') out.push(targetPath(raw) ?? raw);
      // calls --to: a target where the command reads one (parseTargetOrName), else a symbol's name.
      else if (namesLine(raw)) out.push(targetPath(raw) ?? raw);
    }
  }
  return out;
}

type JsonSchema = Record<string, unknown>;

interface Input {
  /** The command's own name for it. */
  key: string;
  /** The tool's name for it: the command's in camelCase (JSON's way: newName), and actions' --apply N is `action`. */
  name: string;
  /** `text`: the value itself handed to the command on its stdin (`--FLAG -`, or `-` as its word), never read as a path. */
  kind: 'positional' | 'words' | 'string' | 'number' | 'boolean' | 'text';
  /** A text taken for the positional argument: `-` is the word, not a flag's value. */
  asWord?: true;
  schema: JsonSchema;
}

/** `new-name` → `newName`: MCP tool inputs are JSON, whose keys are camelCase. */
export const camelCase = (key: string) => key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Flags whose value is a count or a number of seconds: numbers in JSON. */
const NUMERIC_HINTS = new Set(['N', 'K', 'SECONDS']);

export interface ToolModel {
  name: string;
  description: string;
  inputs: Input[];
  writes: boolean;
  /** How an edit is kept a dry run without `apply: true` (its command's declaration says). */
  edit?: Exclude<McpTool, { kind: 'question' }>;
  /** The inputs a call must give, by the tool's names. */
  required: string[];
  outputSchema?: JsonSchema;
}

const EDIT_NOTE = ` Without ${WRITE}: true this is a dry run: nothing written.`;

/** The flags several commands share (common-args.ts): described once, in the instructions, not in every tool. */
const SHARED: Readonly<Record<string, ArgDef>> = { ...declarationArgs, ...editArgs };

/** Whether a command's flag is the shared one itself, not one of its own by the same name. */
const shared = (key: string, def: ArgDef) => SHARED[key] === def;

/** What the server tells a host once: where paths start, what a result holds, and the inputs several tools take. */
export function instructions(root: string): string {
  const inputs = Object.entries(SHARED)
    .filter(([key]) => !LEFT_OUT.has(key))
    .map(([key, def]) => `${camelCase(key)}: ${def.description ?? ''}`);
  return [
    `lspq asks the language servers of ${root} about its code; paths are relative to it.`,
    "A result's structured content is the command's --json answer (its JSON Schema: lspq schema NAME), its text lspq's lines for a person; a failure is a tool error with lspq's one-line message.",
    `Inputs several tools take: ${inputs.join('; ')}.`,
    // Said once here, not as each number's minimum: the list is read before a session's first question.
    'Every number input is a count or seconds, never negative.',
  ].join(' ');
}

function inputOf(
  key: string,
  def: ArgDef,
  variadic: boolean,
  values: readonly string[] | undefined,
  text: string | undefined,
): Input {
  if (text !== undefined)
    return {
      key,
      name: camelCase(key),
      kind: 'text',
      ...(def.type === 'positional' ? { asWord: true as const } : {}),
      schema: { type: 'string', description: text },
    };
  const description = shared(key, def) ? {} : { description: def.description ?? '' };
  const valueEnum = values ? { enum: [...values] } : {};
  // A flag of the write input's name (actions' --apply N) is the action's number here: WRITE is every edit's yes.
  const name = key === WRITE ? 'action' : camelCase(key);
  if (def.type === 'positional')
    return variadic
      ? { key, name, kind: 'words', schema: { type: 'array', items: { type: 'string' }, ...description } }
      : { key, name, kind: 'positional', schema: { type: 'string', ...description, ...valueEnum } };
  if (def.type === 'boolean') return { key, name, kind: 'boolean', schema: { type: 'boolean', ...description } };
  const hint = 'valueHint' in def ? def.valueHint : undefined;
  if (hint && NUMERIC_HINTS.has(hint))
    return {
      key,
      name,
      kind: 'number',
      schema: { type: hint === 'SECONDS' ? 'number' : 'integer', ...description },
    };
  return { key, name, kind: 'string', schema: { type: 'string', ...description, ...valueEnum } };
}

export function toolModels(commands: Readonly<Record<string, Listed>>): ToolModel[] {
  // Questions first, then edits, each in the command list's order: a command declares its own tool.
  const declared = Object.entries(commands).flatMap(([name, c]) => (c.mcp ? [{ name, c, tool: c.mcp }] : []));
  const ordered = [
    ...declared.filter(({ tool }) => tool.kind === 'question'),
    ...declared.filter(({ tool }) => tool.kind === 'edit'),
  ];
  return ordered.map(({ name, c, tool }) => {
    const writes = tool.kind === 'edit';
    const inputs = Object.entries(c.args)
      .filter(
        ([key]) =>
          !LEFT_OUT.has(key) && (tool.kind !== 'edit' || ('dryRun' in tool ? tool.dryRun : tool.write) !== `--${key}`),
      )
      .map(([key, def]) => inputOf(key, def, c.variadic === true, c.values?.[key], tool.text?.[key]));
    return {
      name,
      description: `${c.summary}.${writes ? EDIT_NOTE : ''}`,
      inputs,
      writes,
      required: (tool.required ?? []).map((key) => inputs.find((i) => i.key === key)?.name ?? key),
      ...(tool.kind === 'edit' ? { edit: tool } : {}),
      // The instructions name where the whole is (lspq schema NAME): every tool's was two thirds of the list (33 KB).
      ...(c.shape ? { outputSchema: { type: 'object' } } : {}),
    };
  });
}

/**
 * What a call must give: a question about a place, its target or a
 * symbol's name; rename, its new name; mv, both paths; actions, a target.
 */
function requiredOf(tool: ToolModel): JsonSchema {
  const has = (name: string) => tool.inputs.some((i) => i.name === name);
  const required = tool.required.length ? { required: tool.required } : {};
  // A question about a place takes its target or a symbol's name, one of them (mv and actions name their own).
  const place = has('target') && has('symbol') ? { anyOf: [{ required: ['target'] }, { required: ['symbol'] }] } : {};
  return { ...required, ...place };
}

/** The tool's input schema: its inputs by name, and the write input (apply: true) for edits. */
export function inputSchema(tool: ToolModel): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const i of tool.inputs) properties[i.name] = i.schema;
  if (tool.writes) properties[WRITE] = { type: 'boolean', description: 'Write the edit (default: a dry run)' };
  return { type: 'object', properties, ...requiredOf(tool), additionalProperties: false };
}

/** A call's arguments with the command's own kebab-case names (new-name) taken as their camelCase ones; both at once is an error. */
function camelArguments(tool: ToolModel, args: unknown): { ok: true; value: unknown } | { ok: false; why: string } {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: true, value: args };
  const out: Record<string, unknown> = { ...args };
  for (const i of tool.inputs) {
    if (i.key === i.name || !(i.key in out) || i.key === WRITE) continue;
    if (i.name in out) return { ok: false, why: `${i.key}: given also as ${i.name}; give one` };
    out[i.name] = out[i.key];
    delete out[i.key];
  }
  return { ok: true, value: out };
}

/** A call's arguments checked against the tool's input: a value of the wrong type is a one-line error. */
function checker(tool: ToolModel) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const i of tool.inputs)
    shape[i.name] = z.optional(
      i.kind === 'words'
        ? z.array(z.string())
        : i.kind === 'boolean'
          ? z.boolean()
          : // A number, or its digits as a string (what a client that types everything as text sends).
            i.kind === 'number'
            ? z.union([z.number().check(z.nonnegative()), z.string().check(z.regex(/^\d+(\.\d+)?$/))])
            : z.string(),
    );
  if (tool.writes) shape[WRITE] = z.optional(z.boolean());
  return z.strictObject(shape);
}

/** The command line a call asks: positional words in the command's order, then its flags; or what is wrong. */
export function commandWords(
  tool: ToolModel,
  args: unknown,
): { ok: true; words: string[]; applying: boolean; paths: string[]; stdin?: string } | { ok: false; why: string } {
  const named = camelArguments(tool, args ?? {});
  if (!named.ok) return named;
  const parsed = checker(tool).safeParse(named.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, why: `${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'wrong shape'}` };
  }
  // checker(tool) is built from the tool's inputs, each a string, number, boolean or list of strings.
  const given = parsed.data as Record<string, string | number | boolean | string[] | undefined>;
  const positionals: string[] = [];
  const flags: string[] = [];
  let stdin: string | undefined;
  for (const i of tool.inputs) {
    const value = given[i.name];
    if (value === undefined || value === false) continue;
    if (i.kind === 'text') {
      // The text itself, on the command's stdin: no value of it is ever read as a path or a flag.
      if (i.asWord) positionals.push('-');
      else flags.push(`--${i.key}`, '-');
      stdin = value as string;
    } else if (i.kind === 'positional') positionals.push(value as string);
    else if (i.kind === 'words') positionals.push(...(value as string[]));
    else if (i.kind === 'boolean') flags.push(`--${i.key}`);
    else flags.push(`--${i.key}`, String(value));
  }
  // An edit writes only with apply: true (and where it chooses, something chosen); anything else is a dry run,
  // said to the command in so many words, so that no other input can make it write.
  const edit = tool.edit;
  const chooses = edit && 'chosenBy' in edit ? edit.chosenBy : undefined;
  const chosen =
    !chooses ||
    chooses.some((key) => {
      const value = given[tool.inputs.find((i) => i.key === key)?.name ?? key];
      return value !== undefined && value !== false;
    });
  const applying = edit !== undefined && given[WRITE] === true && chosen;
  if (applying && edit && 'write' in edit) flags.push(edit.write);
  if (!applying && edit && 'dryRun' in edit && chosen) flags.push(edit.dryRun);
  // Positional words come after `--`: a word such as '--write' is a file's name, never a flag.
  const words = [tool.name, ...flags, '--', ...positionals];
  return {
    ok: true,
    words,
    applying,
    paths: pathsOfCall(tool, given),
    ...(stdin !== undefined ? { stdin } : {}),
  };
}
