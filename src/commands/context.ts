/**
 * What a command's run gets besides its arguments: who asked (cwd,
 * environment, colour), how its questions are answered, and how an answer
 * becomes output. The same in the daemon and in the command's process.
 */
import type { CommandOutput, ExitCode } from '../errors';
import type { CommandLine } from '../protocol/messages';
import type { Answerer, Answers, Op, Query } from '../queries';
import { renderOptions, type RenderOptions } from '../render/style';
import type { Rendered } from '../render/types';
import type { ArgsOf, CommandName } from './table';
import type { Parsed } from './flags';
import { callerContext, jsonWanted, type ServerFlags } from './options';

/** Where the engine runs: how questions are answered there, and who hears of an internal error. */
export interface Host {
  answer: Answerer;
  /** Told of every error before it becomes output: the daemon logs the stack of an internal one. */
  report?: (err: unknown) => void;
}

export interface RunContext {
  line: CommandLine;
  /** Asks one question, with the caller context the shared flags give. */
  ask<O extends Op>(query: Extract<Query, { op: O }>, flags: ServerFlags): Promise<Answers[O]>;
}

export type Run<N extends CommandName> = (args: Parsed<ArgsOf<N>>, ctx: RunContext) => Promise<CommandOutput>;

export function runContext(line: CommandLine, host: Host): RunContext {
  return {
    line,
    ask: (query, flags) =>
      host.answer({
        ...query,
        ...callerContext(flags, line.cwd, line.env),
        ...(line.editId ? { editId: line.editId } : {}),
      }),
  };
}

/** How one kind of answer is shown: lines for a person, a JSON document, and whether anything was found (exit 0 against 1). */
export interface Presenter<R> {
  human: (result: R, options: RenderOptions) => Rendered;
  json: (result: R, cwd: string) => object;
  found: (result: R) => boolean;
}

export function present<R>(
  result: R,
  json: boolean | undefined,
  presenter: Presenter<R>,
  line: CommandLine,
): CommandOutput {
  const exit: ExitCode = presenter.found(result) ? 0 : 1;
  if (jsonWanted(json, line.env)) return { stdout: `${JSON.stringify(presenter.json(result, line.cwd))}\n`, exit };
  const { stdout, stderr, warning } = presenter.human(result, renderOptions(line.cwd, line.color));
  return { stdout, exit, ...(stderr ? { stderr } : {}), ...(warning ? { warnings: [warning] } : {}) };
}
