/** lspq completion zsh: a completion function for zsh's completion system, from the command table. Pure. */
import type { CompletionModel, FlagModel } from './model';

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

/** A global flag's value typed before the command: its values, or a folder. */
function valueCompletion(f: FlagModel): string {
  if (f.values) return `compadd -- ${f.values.join(' ')}`;
  if (f.complete === 'dirs') return '_files -/';
  if (f.complete === 'files') return '_files';
  return `_message ${f.long}`;
}

function flagSpec(f: FlagModel, names: string[]): string {
  const value = f.takesValue ? `:${f.long}:${action(f.values, f.complete, names)}` : '';
  const body = `[${quoteSpec(f.description)}]${value}`;
  if (!f.short) return `'--${f.long}${body}'`;
  return `'(-${f.short} --${f.long})'{-${f.short},--${f.long}}'${body}'`;
}

export function zshScript(model: CompletionModel): string {
  const { commands, leading } = model;
  const names = commands.map((c) => c.name);
  const valued = leading.filter((f) => f.takesValue);
  const switches = leading.filter((f) => !f.takesValue).map((f) => `--${f.long}`);
  // After a global flag that takes a value, before the command: its values.
  const leadingValues = valued.map((f) => `            --${f.long}) ${valueCompletion(f)} ;;`);
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
  # Global flags may come before the command (lspq --json def ...): the command is the first word after them.
  local at=2
  while (( at < CURRENT )); do
    case $words[at] in
      ${[...switches, '--*=*'].join('|')}) (( at++ )) ;;
      ${valued.map((f) => `--${f.long}`).join('|')})
        if (( at + 1 == CURRENT )); then
          case $words[at] in
${leadingValues.join('\n')}
          esac
          return
        fi
        (( at += 2 )) ;;
      *) break ;;
    esac
  done
  if (( CURRENT == at )); then
    if [[ $PREFIX == -* ]]; then
      compadd -- ${leading.map((f) => `--${f.long}`).join(' ')} --help --version
    else
      _describe -t commands 'lspq command' commands
    fi
    return
  fi
  local cmd=$words[at]
  words=(\${words[at,-1]})
  (( CURRENT -= at - 1 ))
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
