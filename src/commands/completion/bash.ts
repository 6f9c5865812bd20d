/** lspq completion bash: a completion function for bash, from the command table. Pure. */
import type { CommandModel, CompletionModel, FlagModel } from './model';

const words = (list: readonly string[]) => list.join(' ');

/** What completes a flag's value, or a positional word. */
function valueAction(f: { values?: readonly string[]; complete: string }, names: string[]): string {
  if (f.values) return `COMPREPLY=($(compgen -W "${words(f.values)}" -- "$cur"))`;
  if (f.complete === 'commands') return `COMPREPLY=($(compgen -W "${words(names)}" -- "$cur"))`;
  if (f.complete === 'dirs') return 'COMPREPLY=($(compgen -d -- "$cur"))';
  if (f.complete === 'files') return 'COMPREPLY=($(compgen -f -- "$cur"))';
  return 'COMPREPLY=()';
}

const spellings = (f: FlagModel) => [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])];

/** `case "$prev"` arms: after a flag that takes a value, its values. */
function valueCases(flags: FlagModel[], names: string[], indent: string): string[] {
  return flags
    .filter((f) => f.takesValue)
    .map((f) => `${indent}${spellings(f).join('|')}) ${valueAction(f, names)}; return ;;`);
}

function commandCase(c: CommandModel, names: string[]): string {
  const flags = c.flags.flatMap(spellings);
  return [
    `    ${c.name})`,
    '      case "$prev" in',
    ...valueCases(c.flags, names, '        '),
    '      esac',
    `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words(flags)}" -- "$cur")); return; fi`,
    `      ${valueAction(c.positional, names)}`,
    '      ;;',
  ].join('\n');
}

export function bashScript(model: CompletionModel): string {
  const names = model.commands.map((c) => c.name);
  const leading = model.leading.flatMap(spellings);
  const valued = model.leading.filter((f) => f.takesValue).flatMap(spellings);
  const switches = model.leading.filter((f) => !f.takesValue).flatMap(spellings);
  return `# lspq completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/lspq
_lspq() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" at=1
  # Global flags may come before the command (lspq --json def ...): the command is the first word after them.
  while (( at < COMP_CWORD )); do
    case "\${COMP_WORDS[at]}" in
      ${[...switches, '--*=*'].join('|')}) (( at++ )) ;;
      ${valued.join('|')}) (( at += 2 )) ;;
      *) break ;;
    esac
  done
  if (( at >= COMP_CWORD )); then
    case "$prev" in
${valueCases(model.leading, names, '      ').join('\n')}
    esac
    if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words(leading)} --help --version" -- "$cur")); return; fi
    COMPREPLY=($(compgen -W "${words(names)}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[at]}" in
${model.commands.map((c) => commandCase(c, names)).join('\n')}
  esac
}
complete -o filenames -o bashdefault -F _lspq lspq
`;
}
