/** completion: the shell's completion script for lspq, made from the command table. */
import { usage } from '../../common/errors';
import { defineCommand } from '../define';
import { bashScript } from './bash';
import { fishScript } from './fish';
import { completionModel } from './model';
import { zshScript } from './zsh';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export const completion = defineCommand({
  summary: "the shell's completion script: commands, flags, their values, server ids, file names",
  args: {
    shell: { type: 'positional', required: false, description: 'bash, zsh or fish', valueHint: 'SHELL' },
  },
  values: { shell: Object.keys(SHELLS) },
  examples: ['lspq completion bash', 'lspq completion fish'],
  process: 'here',
  run: async (args, { commands }) => {
    const shell = args.shell;
    if (shell === undefined || !Object.hasOwn(SHELLS, shell))
      throw usage(
        `lspq completion takes bash, zsh or fish${shell === undefined ? '' : `, not '${shell}'`}; e.g. source <(lspq completion bash)`,
      );
    // The servers lspq knows, for --server's values (loaded here: the registry is the engine's).
    const { BUILTIN_SERVERS } = await import('../../lsp/servers/registry');
    const model = completionModel(
      commands,
      BUILTIN_SERVERS.map((s) => s.id),
    );
    return { stdout: SHELLS[shell as keyof typeof SHELLS](model), exit: 0 };
  },
});
