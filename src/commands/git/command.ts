/**
 * `lspq git`: git under a safety policy. Raw words in, because git's
 * grammar is not lspq's; lspq's own flags are taken out wherever they
 * stand, everything else is git's.
 */
import { gitCall } from '../../git/call';
import { defineCommand } from '../define';
import { jsonWanted } from '../options';
import { gitHelp, renderGitCall } from './render';
import { GitShape } from './shape';

export interface LspqGitFlags {
  words: string[];
  json?: boolean;
  allowWrite: boolean;
  allowDestructive: boolean;
  help: boolean;
}

/** lspq's flags out of the raw words. `--help` before `--` is lspq's (git's would open a man page); `-h` after a subcommand is git's short usage. */
export function splitFlags(raw: readonly string[]): LspqGitFlags {
  const flags: LspqGitFlags = { words: [], allowWrite: false, allowDestructive: false, help: false };
  let afterDashDash = false;
  for (const word of raw) {
    if (word === '--') afterDashDash = true;
    if (word === '--json') flags.json = true;
    else if (word === '--no-json') flags.json = false;
    else if (word === '--allow-write') flags.allowWrite = true;
    else if (word === '--allow-destructive') flags.allowDestructive = true;
    else if (!afterDashDash && word === '--help') flags.help = true;
    else flags.words.push(word);
  }
  if (flags.words[0] === '-h') flags.help = true;
  return flags;
}

export const git = defineCommand({
  summary: 'git under a safety policy (--allow-write, --allow-destructive)',
  args: {},
  examples: ['lspq git status --json', 'lspq git log -n 5 --json', "lspq git commit -m 'fix parser' --allow-write"],
  process: 'here',
  passthrough: true,
  run: async (args, { line }) => {
    const flags = splitFlags(args._);
    if (flags.help) return { stdout: gitHelp(), exit: 0 };
    const result = await gitCall(flags.words, {
      json: jsonWanted(flags.json, line.env),
      allowWrite: flags.allowWrite,
      allowDestructive: flags.allowDestructive,
      color: line.color,
      cwd: line.cwd,
      env: line.env,
    });
    return renderGitCall(result);
  },
  shape: GitShape,
});
