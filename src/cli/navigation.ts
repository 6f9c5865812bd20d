/**
 * The questions about code (def, refs, hover, symbols, calls, ...), one
 * entry point of the binary (src/entries.ts). A warm question is run here
 * by the daemon, for the command that forwarded its command line; the
 * command itself loads this only for --help and --no-daemon. So the
 * process every question starts holds none of this code, and parsing,
 * checking and rendering run in the daemon, already warm.
 */
import type { CommandDef } from 'citty';
import { errorOutput, jsonInArgv, usage, type CommandOutput } from '../errors';
import { parseFlags } from './_flags';
import type { Caller } from './_run';

export { localCaller } from './_run';
import calls from './calls';
import def from './def';
import hover from './hover';
import impls from './impls';
import refs from './refs';
import symbols from './symbols';
import typedef from './typedef';

export const NAVIGATION: Record<string, CommandDef<any>> = { def, typedef, impls, refs, hover, symbols, calls };

/**
 * One command line, run for `caller`: parsed by the command's definition,
 * answered, rendered. Every failure becomes the output the command would
 * have printed (the error line, the JSON error document, the exit code).
 */
export async function runCommandLine(name: string, rawArgs: string[], caller: Caller): Promise<CommandOutput> {
  try {
    const command = NAVIGATION[name];
    if (!command?.run) throw usage(`unknown command '${name}'; run 'lspq --help' for the list`);
    const args = parseFlags(name, rawArgs, command);
    return (await command.run({ rawArgs, args, cmd: command, data: caller } as Parameters<NonNullable<typeof command.run>>[0])) as CommandOutput;
  } catch (err) {
    caller.report?.(err);
    return errorOutput(err, jsonInArgv(rawArgs, caller.env));
  }
}
