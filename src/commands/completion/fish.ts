/** lspq completion fish: fish's complete commands, from the command table. Pure. */
import type { CompletionModel, FlagModel } from './model';

/** A word in single quotes for fish. */
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** One flag's `complete` line under a condition: its names, what its value completes with, its description. */
function flagLine(when: string, f: FlagModel): string {
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
  return `complete -c lspq ${when} ${names}${value} -d ${quote(f.description)}`;
}

export function fishScript(model: CompletionModel): string {
  const { commands, leading } = model;
  const names = commands.map((c) => c.name);
  const switches = leading.filter((f) => !f.takesValue).map((f) => `--${f.long}`);
  const valued = leading.filter((f) => f.takesValue).map((f) => `--${f.long}`);
  const lines = [
    '# lspq completion for fish: lspq completion fish > ~/.config/fish/completions/lspq.fish',
    'complete -c lspq -f',
    // Global flags may come before the command (lspq --json def ...): no command yet while only they were typed.
    'function __lspq_needs_command',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    while set -q words[1]',
    '        switch $words[1]',
    `            case ${[...switches, "'--*=*'"].join(' ')}`,
    '                set -e words[1]',
    `            case ${valued.join(' ')}`,
    '                set -e words[1..2]',
    "            case '*'",
    '                return 1',
    '        end',
    '    end',
    '    return 0',
    'end',
    ...commands.map((c) => `complete -c lspq -n __lspq_needs_command -a ${c.name} -d ${quote(c.summary)}`),
    ...leading.map((f) => flagLine('-n __lspq_needs_command', f)),
    "complete -c lspq -n __lspq_needs_command -l version -d 'Print the version'",
  ];
  for (const c of commands) {
    const when = `-n '__fish_seen_subcommand_from ${c.name}'`;
    for (const f of c.flags) lines.push(flagLine(when, f));
    const p = c.positional;
    if (p.values) lines.push(`complete -c lspq ${when} -a ${quote(p.values.join(' '))}`);
    else if (p.complete === 'commands') lines.push(`complete -c lspq ${when} -a ${quote(names.join(' '))}`);
    else if (p.complete === 'files') lines.push(`complete -c lspq ${when} -F`);
    else if (p.complete === 'dirs') lines.push(`complete -c lspq ${when} -a '(__fish_complete_directories)'`);
  }
  return `${lines.join('\n')}\n`;
}
