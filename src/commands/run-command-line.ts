/**
 * The one path every command line travels: a command line in (from the
 * command's process, through the daemon or here), parsed by the command's
 * declared flags, answered through the host, rendered, and its exit code
 * decided. Nothing here prints.
 */
import { loadBundle } from '../bundles';
import { type CommandOutput, errorOutput, usage } from '../common/errors';
import type { CommandLine } from '../common/messages';
import type { Defined, Listed, Invocation } from './define';
import type { HelpBundle } from './help';
import { COMMANDS, isCommand } from './list';
import { callerContext, type ServerFlags } from './options';
import type { AnswerOf, Op, QueryOf, Question } from './operations';

/** Where the engine runs: how questions are answered there, and who hears of an internal error. */
export interface Host {
  answer<K extends Op>(request: Question<K>): Promise<AnswerOf<K>>;
  /** Told of every error before it becomes output: the daemon logs the stack of an internal one. */
  report?: (err: unknown) => void;
}

/** Every command as the others may know it (a batch's checks, the schema). */
const LISTED: Readonly<Record<string, Listed>> = COMMANDS;

function invocationFor(line: CommandLine, host: Host): Invocation {
  return {
    line,
    ask: <K extends Op>(query: QueryOf<K>, flags: ServerFlags) =>
      host.answer<K>({
        ...query,
        ...callerContext(flags, line.cwd, line.env),
        ...(line.editId ? { editId: line.editId } : {}),
        ...(line.confine ? { confine: line.confine } : {}),
      }),
    runLine: (next) => runCommandLine(next, host),
    commands: LISTED,
  };
}

/** The command a line names, or the usage error that says it names none. */
function commandOf(line: CommandLine): Defined {
  const name = line.command;
  if (!isCommand(name)) throw usage(`unknown command '${name}'; run 'lspq --help' for the list`);
  return COMMANDS[name];
}

/**
 * Runs one command line for `host`. Every failure becomes the output the
 * command prints: the error line, the JSON error document with --json, the
 * exit code of the contract.
 */
export async function runCommandLine(line: CommandLine, host: Host): Promise<CommandOutput> {
  try {
    const command = commandOf(line);
    if (line.help) return { stdout: await loadBundle<HelpBundle>('help').helpFor(line.command), exit: 0 };
    return await command.exec(invocationFor(line, host));
  } catch (err) {
    host.report?.(err);
    return errorOutput(err, line.json);
  }
}

/**
 * Runs a command that reads its requests as they come (batch): each line
 * of `input` answered through `emit`. Its own output is empty; its exit
 * code is the worst answer's.
 */
export async function runStreamLine(
  line: CommandLine,
  input: AsyncIterable<string>,
  emit: (line: string) => void,
  host: Host,
): Promise<CommandOutput> {
  try {
    const command = commandOf(line);
    if (!command.execStream) throw usage(`'${line.command}' reads no requests from stdin`);
    return await command.execStream(invocationFor(line, host), input, emit);
  } catch (err) {
    host.report?.(err);
    return errorOutput(err, false);
  }
}
