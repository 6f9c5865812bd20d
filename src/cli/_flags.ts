/**
 * Unknown flags and extra arguments are errors, not silently ignored: a
 * typo must not change the answer.
 */
import type { ArgsDef, CommandDef } from 'citty';
import { usage } from '../errors';

/** Commands whose positional argument takes any number of words. */
const VARIADIC = new Set(['diag']);

export function checkFlags(name: string, rawArgs: string[], command: CommandDef<any>): void {
  const defs = (typeof command.args === 'object' ? command.args : {}) as ArgsDef;
  const known = new Set<string>();
  const takesValue = new Set<string>();
  let positionals = 0;
  for (const [key, def] of Object.entries(defs)) {
    if (def.type === 'positional') {
      positionals++;
      continue;
    }
    const aliases = 'alias' in def && def.alias ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    for (const n of [key, ...aliases]) {
      known.add(n);
      if (def.type === 'string') takesValue.add(n);
    }
    if (def.type === 'boolean') known.add(`no-${key}`);
  }
  let seen = 0;
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!;
    if (raw === '--') {
      seen += rawArgs.length - i - 1;
      break;
    }
    if (!raw.startsWith('-') || raw === '-') {
      seen++;
      continue;
    }
    const flag = raw.replace(/^--?/, '').split('=')[0]!;
    const flags = raw.startsWith('--') ? [flag] : flag.split('');
    for (const f of flags) {
      if (!known.has(f)) throw usage(`unknown flag '${raw}' for 'lspq ${name}'; see 'lspq ${name} --help'`);
    }
    const last = flags[flags.length - 1]!;
    if (takesValue.has(last) && !raw.includes('=')) {
      const value = rawArgs[i + 1];
      if (value === undefined) throw usage(`${raw} needs a value; see 'lspq ${name} --help'`);
      if (value.startsWith('-') && !/^-\d/.test(value)) throw usage(`${raw} needs a value, not the flag '${value}'`);
      if (/^-\d/.test(value)) throw usage(`${raw} takes a positive number, not '${value}'`);
      i++;
    }
  }
  if (!VARIADIC.has(name) && seen > positionals) {
    throw usage(`too many arguments for 'lspq ${name}' (it takes ${positionals === 1 ? 'one' : positionals}); see 'lspq ${name} --help'`);
  }
}
