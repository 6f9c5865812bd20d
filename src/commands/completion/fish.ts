/** lspq completion fish: fish's complete commands, from the command table. Pure. */
import type { CommandModel } from './model';

/** A word in single quotes for fish. */
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function fishScript(commands: CommandModel[]): string {
  const names = commands.map((c) => c.name);
  const lines = [
    '# lspq completion for fish: lspq completion fish > ~/.config/fish/completions/lspq.fish',
    'complete -c lspq -f',
    ...commands.map((c) => `complete -c lspq -n '__fish_use_subcommand' -a ${c.name} -d ${quote(c.summary)}`),
    "complete -c lspq -n '__fish_use_subcommand' -l version -d 'Print the version'",
  ];
  for (const c of commands) {
    const when = `-n '__fish_seen_subcommand_from ${c.name}'`;
    for (const f of c.flags) {
      const names = `-l ${f.long}${f.short ? ` -s ${f.short}` : ''}`;
      const value = f.values
        ? ` -x -a ${quote(f.values.join(' '))}`
        : f.takesValue
          ? f.complete === 'files'
            ? ' -r -F'
            : f.complete === 'dirs'
              ? " -x -a '(__fish_complete_directories)'"
              : ' -x'
          : '';
      lines.push(`complete -c lspq ${when} ${names}${value} -d ${quote(f.description)}`);
    }
    const p = c.positional;
    if (p.values) lines.push(`complete -c lspq ${when} -a ${quote(p.values.join(' '))}`);
    else if (p.complete === 'commands') lines.push(`complete -c lspq ${when} -a ${quote(names.join(' '))}`);
    else if (p.complete === 'files') lines.push(`complete -c lspq ${when} -F`);
    else if (p.complete === 'dirs') lines.push(`complete -c lspq ${when} -a '(__fish_complete_directories)'`);
  }
  return `${lines.join('\n')}\n`;
}
