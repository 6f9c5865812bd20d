/**
 * What a shell completes, from the command table: each command with its
 * summary, its flags (long and short names, whether one takes a value, the
 * values it takes, whether that is a file or a folder) and what its
 * positional words are. Pure: the declarations in, plain data out.
 */
import type { ArgsDef } from 'citty';
import type { Declaration } from '../declaration';

export type Complete = 'files' | 'dirs' | 'commands' | 'none';

export interface FlagModel {
  long: string;
  short?: string;
  description: string;
  /** The flag takes a value (the next word). */
  takesValue: boolean;
  values?: readonly string[];
  complete: Complete;
}

export interface CommandModel {
  name: string;
  summary: string;
  flags: FlagModel[];
  /** The positional words: values, or what the shell completes them with. */
  positional: { values?: readonly string[]; complete: Complete };
}

/** What a value hint asks the shell for: FILE and TARGET words are file names, DIR a folder. */
function completeFor(hint: string | undefined): Complete {
  if (!hint) return 'none';
  if (/^(DIR)$/.test(hint)) return 'dirs';
  if (hint === 'COMMAND') return 'commands';
  if (/FILE|TARGET|OLD|NEW/.test(hint)) return 'files';
  return 'none';
}

export function completionModel(commands: Readonly<Record<string, Declaration>>): CommandModel[] {
  return Object.entries(commands).map(([name, c]) => {
    const args = c.args as ArgsDef;
    const flags: FlagModel[] = [];
    let positional: CommandModel['positional'] = { complete: c.passthrough ? 'files' : 'none' };
    for (const [key, def] of Object.entries(args)) {
      const values = c.values?.[key];
      if (def.type === 'positional') {
        positional = values ? { values, complete: 'none' } : { complete: completeFor(def.valueHint) };
        continue;
      }
      const alias = 'alias' in def ? def.alias : undefined;
      const short = typeof alias === 'string' ? alias : Array.isArray(alias) ? alias[0] : undefined;
      // A flag on by default is said as its negation (--no-daemon).
      const negated = def.type === 'boolean' && 'default' in def && def.default === true;
      flags.push({
        long: negated ? `no-${key}` : key,
        ...(short && short.length === 1 ? { short } : {}),
        description: def.description ?? '',
        takesValue: def.type === 'string',
        ...(values ? { values } : {}),
        complete: def.type === 'string' ? completeFor(def.valueHint) : 'none',
      });
    }
    flags.push({
      long: 'help',
      short: 'h',
      description: "This command's flags and examples",
      takesValue: false,
      complete: 'none',
    });
    return { name, summary: c.summary, flags, positional };
  });
}
