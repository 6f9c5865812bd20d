/**
 * Every --json document the tests see is checked against lspq's published
 * schema (the same zod schemas `lspq schema` prints), with a validator that
 * is not zod's own: a changed answer shape fails the suite until the schema
 * changes with it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { scanWords } from '../../src/common/words';
import { COMMANDS } from '../../src/commands/list';
import { commandSchema } from '../../src/commands/schema/command';

const ajv = new Ajv2020({ allErrors: false, strict: false });
const compiled = new Map<string, ValidateFunction>();

function validator(command: string): ValidateFunction | undefined {
  const shape = (COMMANDS as Record<string, { shape?: Parameters<typeof commandSchema>[0] }>)[command]?.shape;
  if (!shape) return undefined;
  let v = compiled.get(command);
  if (!v) {
    v = ajv.compile(commandSchema(shape));
    compiled.set(command, v);
  }
  return v;
}

/** Throws, naming the command and the first mismatch, if `doc` is not a valid answer of `command`. */
export function checkAnswer(command: string, doc: unknown): void {
  const v = validator(command);
  if (!v) return;
  if (!v(doc)) {
    const e = v.errors?.[0];
    throw new Error(
      `lspq ${command} --json does not match its schema: ${e?.instancePath || '/'} ${e?.message} (${JSON.stringify(e?.params)})`,
    );
  }
}

/**
 * The JSON a command line printed, checked: one document, or one per line
 * for batch. Text that is not JSON (a human answer) is not this check's
 * business; a command that says it prints JSON and does not is caught by
 * the test that parses it.
 */
export function checkOutput(args: readonly string[], env: Record<string, string | undefined>, stdout: string): void {
  const words = scanWords(args, env, (c) => c === 'git');
  const command = words.command;
  if (!command || !stdout.trim()) return;
  const batch = command === 'batch';
  if (!batch && !words.json && !(command === 'git' && args.includes('--json'))) return;
  const docs = batch ? stdout.trim().split('\n') : [stdout];
  for (const text of docs) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return;
    }
    checkAnswer(command, doc);
  }
}
