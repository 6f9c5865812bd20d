/** lspq completion bash: a completion function for bash, from the command table. Pure. */
import type { CommandModel } from './model';

const words = (list: readonly string[]) => list.join(' ');

export function bashScript(commands: CommandModel[]): string {
  const names = commands.map((c) => c.name);
  const cases = commands.map((c) => {
    const flags = c.flags.flatMap((f) => [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])]);
    const valued = c.flags.filter((f) => f.takesValue);
    const valueCases = valued.map((f) => {
      const pattern = [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])].join('|');
      const action = f.values
        ? `COMPREPLY=($(compgen -W "${words(f.values)}" -- "$cur"))`
        : f.complete === 'dirs'
          ? 'COMPREPLY=($(compgen -d -- "$cur"))'
          : f.complete === 'files'
            ? 'COMPREPLY=($(compgen -f -- "$cur"))'
            : 'COMPREPLY=()';
      return `        ${pattern}) ${action}; return ;;`;
    });
    const p = c.positional;
    const positional = p.values
      ? `COMPREPLY=($(compgen -W "${words(p.values)}" -- "$cur"))`
      : p.complete === 'commands'
        ? `COMPREPLY=($(compgen -W "${words(names)}" -- "$cur"))`
        : p.complete === 'dirs'
          ? 'COMPREPLY=($(compgen -d -- "$cur"))'
          : p.complete === 'files'
            ? 'COMPREPLY=($(compgen -f -- "$cur"))'
            : 'COMPREPLY=()';
    return [
      `    ${c.name})`,
      '      case "$prev" in',
      ...valueCases,
      '      esac',
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words(flags)}" -- "$cur")); return; fi`,
      `      ${positional}`,
      '      ;;',
    ].join('\n');
  });
  return `# lspq completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/lspq
_lspq() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words(names)} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
}
complete -o filenames -o bashdefault -F _lspq lspq
`;
}
