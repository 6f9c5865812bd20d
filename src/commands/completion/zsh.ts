/** lspq completion zsh: a completion function for zsh's completion system, from the command table. Pure. */
import type { CommandModel, FlagModel } from './model';

/** Text inside an _arguments spec's brackets and descriptions: [ ] : and ' escaped. */
const quoteSpec = (text: string) =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/[[\]:]/g, '\\$&')
    .replace(/'/g, "'\\''");

function action(values: readonly string[] | undefined, complete: string, names: string[]): string {
  if (values) return `(${values.join(' ')})`;
  if (complete === 'files') return '_files';
  if (complete === 'dirs') return '_files -/';
  if (complete === 'commands') return `(${names.join(' ')})`;
  return ' ';
}

function flagSpec(f: FlagModel, names: string[]): string {
  const value = f.takesValue ? `:${f.long}:${action(f.values, f.complete, names)}` : '';
  const body = `[${quoteSpec(f.description)}]${value}`;
  if (!f.short) return `'--${f.long}${body}'`;
  return `'(-${f.short} --${f.long})'{-${f.short},--${f.long}}'${body}'`;
}

export function zshScript(commands: CommandModel[]): string {
  const names = commands.map((c) => c.name);
  const described = commands.map((c) => `    '${c.name}:${quoteSpec(c.summary)}'`);
  const cases = commands.map((c) => {
    const p = c.positional;
    const rest = p.values || p.complete !== 'none' ? [`'*:${c.name}:${action(p.values, p.complete, names)}'`] : [];
    return `    ${c.name}) _arguments -s ${[...c.flags.map((f) => flagSpec(f, names)), ...rest].join(' ')} ;;`;
  });
  return `#compdef lspq
# lspq completion for zsh: lspq completion zsh > "\${fpath[1]}/_lspq", or source it after compinit
_lspq() {
  local -a commands
  commands=(
${described.join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'lspq command' commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
${cases.join('\n')}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _lspq "$@"
else
  compdef _lspq lspq
fi
`;
}
