/**
 * Command-line words to a command's arguments, by the command's own citty
 * definition. Unknown flags and extra arguments are errors, not silently
 * ignored: a typo must not change the answer.
 *
 * lspq parses here rather than through citty's runCommand: citty's parser
 * and its case-converting argument proxy cost about 0.4 ms of every warm
 * question (a twentieth of it), and lspq checked every word already.
 * citty still defines the commands and renders their --help.
 */
import type { ArgsDef } from 'citty';
import { usage } from '../common/errors';
import { didYouMean } from '../common/nearest';
import type { Declaration } from './declaration';

/**
 * A flag that may be given more than once (diag --patch A --patch B): each
 * value kept, in order. Declared as `repeats: true` beside its citty fields.
 */
export type Repeated = { type: 'string'; repeats: true };

/** A command's arguments as its flags declare them: switches are booleans, a repeated flag its values, the rest strings; `_` holds every positional word. */
export type Parsed<A extends ArgsDef> = {
  -readonly [K in keyof A]?: A[K] extends { type: 'boolean' } ? boolean : A[K] extends Repeated ? string[] : string;
} & { _: string[] };

type Loose = Record<string, unknown> & { _: string[] };

interface Flag {
  key: string;
  type: 'boolean' | 'string';
  repeats: boolean;
}

/** A command's flags by every name they answer to: made once per command (define.ts), as its flags never change. */
export interface FlagTable {
  flags: Map<string, Flag>;
  positionals: string[];
  defaults: Record<string, unknown>;
}

export function flagTable(defs: ArgsDef): FlagTable {
  const flags = new Map<string, Flag>();
  const positionals: string[] = [];
  const defaults: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    if (def.type === 'positional') {
      positionals.push(key);
      continue;
    }
    if (def.type !== 'boolean' && def.type !== 'string') continue;
    const aliases = 'alias' in def && def.alias ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    const repeats = 'repeats' in def && def.repeats === true;
    for (const name of [key, ...aliases]) flags.set(name, { key, type: def.type, repeats });
    if ('default' in def && def.default !== undefined) defaults[key] = def.default;
  }
  return { flags, positionals, defaults };
}

function booleanValue(raw: string, value: string, name: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw usage(`${raw} is a switch: write it alone (or --no-${name}), without a value`);
}

/** Parses `rawArgs` for command `name` by its declared flags; throws a one-line usage error on anything it does not define. */
export function parseFlags<A extends ArgsDef>(
  name: string,
  spec: Declaration & { args: A },
  rawArgs: readonly string[],
  table: FlagTable = flagTable(spec.args),
): Parsed<A> {
  // Another program's words (git's): taken as they are, every one of them.
  if (spec.passthrough) return { _: [...rawArgs] } as Parsed<A>;
  const { flags, positionals, defaults } = table;
  const args: Loose = { ...defaults, _: [] };
  const unknown = (raw: string) => {
    const long = raw.startsWith('--') ? raw.slice(2).replace(/=.*/s, '') : undefined;
    const names = [...flags.keys()].filter((n) => n.length > 1);
    // --no-root is no typo: it negates a flag that takes a value, and the line says no more than that.
    const negated = long?.startsWith('no-') && flags.has(long.slice(3));
    const meant = long === undefined || negated ? undefined : didYouMean(long, names);
    const hint = meant ? `did you mean '--${meant}'? ` : '';
    return usage(`unknown flag '${raw}' for 'lspq ${name}'; ${hint}see 'lspq ${name} --help'`);
  };
  const valueAfter = (raw: string, i: number): string => {
    const value = rawArgs[i + 1];
    if (value === undefined) throw usage(`${raw} needs a value; see 'lspq ${name} --help'`);
    if (/^-\d/.test(value)) throw usage(`${raw} takes a positive number, not '${value}'`);
    // `-` alone is stdin, as the value of a flag that reads a file (diag --patch -).
    if (value.startsWith('-') && value !== '-') throw usage(`${raw} needs a value, not the flag '${value}'`);
    return value;
  };
  // A repeated flag keeps every value in order; any other, the last given.
  const set = (flag: Flag, value: string) => {
    const before = args[flag.key];
    args[flag.key] = flag.repeats ? [...(Array.isArray(before) ? before : []), value] : value;
  };
  // By index: a flag's value is the next word, and the loop steps past it (valueAfter's i++).
  for (let i = 0, raw = rawArgs[0]; raw !== undefined; raw = rawArgs[++i]) {
    if (raw === '--') {
      args._.push(...rawArgs.slice(i + 1));
      break;
    }
    if (!raw.startsWith('-') || raw === '-') {
      args._.push(raw);
      continue;
    }
    if (raw.startsWith('--')) {
      const eq = raw.indexOf('=');
      const word = raw.slice(2, eq < 0 ? undefined : eq);
      const inline = eq < 0 ? undefined : raw.slice(eq + 1);
      const flag = flags.get(word);
      const negated = !flag && word.startsWith('no-') ? flags.get(word.slice(3)) : undefined;
      if (negated?.type === 'boolean' && inline === undefined) args[negated.key] = false;
      else if (!flag) throw unknown(raw);
      else if (flag.type === 'boolean') args[flag.key] = inline === undefined ? true : booleanValue(raw, inline, word);
      else set(flag, inline ?? valueAfter(raw, i++));
      continue;
    }
    // Short flags, possibly grouped (-w); only the last of a group may take a value.
    const letters = raw.slice(1).split('');
    for (const [at, letter] of letters.entries()) {
      const flag = flags.get(letter);
      if (!flag) throw unknown(raw);
      if (flag.type === 'boolean') args[flag.key] = true;
      else if (at !== letters.length - 1) {
        // grep's -C3: the value written onto the letter.
        set(flag, letters.slice(at + 1).join(''));
        break;
      } else set(flag, valueAfter(raw, i++));
    }
  }
  if (!spec.variadic && args._.length > positionals.length) {
    throw usage(
      `too many arguments for 'lspq ${name}' (it takes ${positionals.length === 1 ? 'one' : positionals.length}); see 'lspq ${name} --help'`,
    );
  }
  positionals.forEach((key, at) => {
    if (args._[at] !== undefined) args[key] = args._[at];
  });
  // Every key set above is a declared flag of its declared type: the shape Parsed describes.
  return args as Parsed<A>;
}
