/**
 * `lspq git`: raw words in, because git's grammar is not citty's. lspq's
 * own flags are taken out wherever they stand; everything else is git's.
 */
import { defineCommand } from 'citty';
import { gitHelp } from '../render/git';
import { processEnv, wantsColor } from './_process';
import type { CommandOutput } from './_run';
import { jsonWanted } from './_shared';

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

export default defineCommand({
  meta: { name: 'git', description: 'git under a safety policy (--allow-write, --allow-destructive)' },
  run: async ({ rawArgs }): Promise<CommandOutput> => {
    const flags = splitFlags(rawArgs);
    if (flags.help) return { stdout: gitHelp(), exit: 0 };
    const env = processEnv();
    // require(), not import(): see main.ts.
    const { runGit } = require('../git/command') as typeof import('../git/command');
    return runGit(flags.words, {
      json: jsonWanted({ json: flags.json }, env),
      allowWrite: flags.allowWrite,
      allowDestructive: flags.allowDestructive,
      color: wantsColor(env),
      cwd: process.cwd(),
      env,
    });
  },
});
