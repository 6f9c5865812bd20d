/**
 * What a shell completes, from the command table: each command with its
 * summary, its flags (long and short names, whether one takes a value, the
 * values it takes, whether that is a file or a folder) and what its
 * positional words are; the global flags that may come before the command;
 * and `help`. Pure: the declarations in, plain data out.
 */
import type { ArgDef } from 'citty';
import { LEADING_SWITCHES, LEADING_VALUED } from '../../common/words';
import { serverArgs } from '../common-args';
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

export interface CompletionModel {
  /** Every command, `help` among them. */
  commands: CommandModel[];
  /** The flags that may stand before the command (`lspq --json def ...`), as the words are read (words.ts). */
  leading: FlagModel[];
}

/** What a value hint asks the shell for: FILE and TARGET words are file names, DIR a folder. */
function completeFor(hint: string | undefined): Complete {
  if (!hint) return 'none';
  if (/^(DIR)$/.test(hint)) return 'dirs';
  if (hint === 'COMMAND') return 'commands';
  if (/FILE|TARGET|OLD|NEW/.test(hint)) return 'files';
  return 'none';
}

/** One flag; --server's values are the known servers' ids. */
function flagModel(key: string, def: ArgDef, values: readonly string[] | undefined, servers: readonly string[]) {
  const alias = 'alias' in def ? def.alias : undefined;
  const short = typeof alias === 'string' ? alias : Array.isArray(alias) ? alias[0] : undefined;
  // A flag on by default is said as its negation (--no-daemon).
  const negated = def.type === 'boolean' && 'default' in def && def.default === true;
  const known = values ?? (def === serverArgs.server ? servers : undefined);
  return {
    long: negated ? `no-${key}` : key,
    ...(short && short.length === 1 ? { short } : {}),
    description: def.description ?? '',
    takesValue: def.type === 'string',
    ...(known ? { values: known } : {}),
    complete: def.type === 'string' ? completeFor(def.valueHint) : 'none',
  } satisfies FlagModel;
}

const HELP_FLAG: FlagModel = {
  long: 'help',
  short: 'h',
  description: "This command's flags and examples",
  takesValue: false,
  complete: 'none',
};

export function completionModel(
  commands: Readonly<Record<string, Declaration>>,
  servers: readonly string[],
): CompletionModel {
  const listed: CommandModel[] = Object.entries(commands).map(([name, c]) => {
    const args = c.args;
    const flags: FlagModel[] = [];
    let positional: CommandModel['positional'] = { complete: c.passthrough ? 'files' : 'none' };
    for (const [key, def] of Object.entries(args)) {
      const values = c.values?.[key];
      if (def.type === 'positional') {
        positional = values ? { values, complete: 'none' } : { complete: completeFor(def.valueHint) };
        continue;
      }
      if (def.type === 'boolean' || def.type === 'string') flags.push(flagModel(key, def, values, servers));
    }
    flags.push(HELP_FLAG);
    return { name, summary: c.summary, flags, positional };
  });
  const help: CommandModel = {
    name: 'help',
    summary: "a command's flags and examples (help COMMAND), or the page for agents (help agents)",
    flags: [],
    positional: { values: [...listed.map((c) => c.name), 'agents'], complete: 'none' },
  };
  const leadingNames = new Set<string>([...LEADING_VALUED, ...LEADING_SWITCHES]);
  const leading = Object.entries(serverArgs)
    .map(([key, def]) => flagModel(key, def, undefined, servers))
    .filter((f) => leadingNames.has(`--${f.long}`));
  return { commands: [...listed, help], leading };
}
