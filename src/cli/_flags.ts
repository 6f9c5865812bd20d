/** Unknown flags are errors, not silently ignored (a typo must not change the answer). */
import type { ArgsDef, CommandDef } from 'citty';
import { usage } from '../errors';

export function checkFlags(name: string, rawArgs: string[], command: CommandDef<any>): void {
  const defs = (typeof command.args === 'object' ? command.args : {}) as ArgsDef;
  const known = new Set<string>();
  for (const [key, def] of Object.entries(defs)) {
    if (def.type === 'positional') continue;
    known.add(key);
    if (def.type === 'boolean') known.add(`no-${key}`);
    const aliases = 'alias' in def && def.alias ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    aliases.forEach((a) => known.add(a));
  }
  for (const raw of rawArgs) {
    if (raw === '--') break;
    if (!raw.startsWith('-') || raw === '-') continue;
    const flag = raw.replace(/^--?/, '').split('=')[0]!;
    const flags = raw.startsWith('--') ? [flag] : flag.split('');
    for (const f of flags) {
      if (!known.has(f)) throw usage(`unknown flag '${raw}' for 'lspq ${name}'; see 'lspq ${name} --help'`);
    }
  }
}
