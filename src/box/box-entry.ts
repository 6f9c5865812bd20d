/**
 * `lspq __box RULES_JSON -- PROGRAM ARGS...`: enters the Landlock box
 * (landlock.ts) and execs the program in it, with this environment. The
 * `box` bundle's entry (src/bundles.ts): it runs before every git call and
 * server start where bubblewrap is missing, so it loads bun:ffi and nothing
 * else. Any failure is exit 126 and one line; the program never runs unboxed.
 */
import { enterBox, errnoText, execFirst } from './landlock';
import type { BoxRules } from './rules';

/** The exit code a shell gives a program it could not run. */
const CANNOT_RUN = 126;
const ENOENT = 2;
const ENOTDIR = 20;

/** Says why on stderr and ends with 126, a code lspq's own exits never use. */
async function cannot(program: string, why: string): Promise<never> {
  await Bun.write(Bun.stderr, `lspq: cannot box ${program}: ${why}\n`);
  process.exit(CANNOT_RUN);
}

const isPaths = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((path) => typeof path === 'string' && path.length > 0);

/**
 * The rules as rules-shape.ts's zod schema has them, checked by hand: zod
 * costs the box's start 4 ms, so it is loaded only to say why a value is
 * refused (test/unit/box.test.ts holds the two to the same answers).
 */
export function isBoxRules(v: unknown): v is BoxRules {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return (
    keys.length === 3 &&
    'read' in v &&
    isPaths(v.read) &&
    'write' in v &&
    isPaths(v.write) &&
    'network' in v &&
    typeof v.network === 'boolean'
  );
}

/** The places execvp would try for `program`: itself when it has a slash, else each absolute folder of PATH. */
export function candidates(program: string, path: string | undefined): string[] {
  if (program.includes('/')) return [program];
  // execvp's default PATH; relative and empty entries (the working folder) are skipped, as lspq skips them everywhere.
  const folders = (path ?? '/bin:/usr/bin').split(':').filter((folder) => folder.startsWith('/'));
  return folders.map((folder) => `${folder.replace(/\/+$/, '')}/${program}`);
}

/** Runs the box's command line: becomes the program, or exits 126 saying why it could not. */
export async function runBox(args: string[]): Promise<never> {
  const [rulesJson, dashes, program, ...rest] = args;
  if (rulesJson === undefined || dashes !== '--' || program === undefined)
    return cannot(program ?? '(no program)', 'usage: lspq __box RULES_JSON -- PROGRAM ARGS...');
  let value: unknown;
  try {
    value = JSON.parse(rulesJson);
  } catch (err) {
    return cannot(program, `the rules are not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isBoxRules(value)) {
    const { whyNotRules } = await import('./rules-shape');
    return cannot(program, `the rules are not {read, write, network}: ${whyNotRules(value) ?? 'refused'}`);
  }
  try {
    enterBox(value);
  } catch (err) {
    return cannot(program, err instanceof Error ? err.message : String(err));
  }
  const files = candidates(program, process.env.PATH);
  const failures = execFirst(files, [program, ...rest], process.env);
  // A place that holds the program but refused it says more than the places that do not hold it.
  const refused = failures.findIndex((code) => code !== ENOENT && code !== ENOTDIR);
  if (refused !== -1) return cannot(program, `${files[refused]}: ${errnoText(failures[refused] ?? 0)}`);
  return cannot(program, files.length === 1 ? errnoText(ENOENT) : 'not found on PATH');
}

export type BoxBundle = typeof import('./box-entry');
