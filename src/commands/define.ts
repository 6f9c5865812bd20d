/**
 * What a command is: its declaration (summary, flags, --help examples, the
 * process that runs it), its run (flags to questions, answers to output),
 * the engine's handlers for the questions it asks (loaded only when one is
 * asked), its JSON shape and what it needs of a server. Each command is one
 * folder (src/commands/NAME/) whose command.ts makes one with
 * `defineCommand`; list.ts names them all, and every table is derived
 * from that list.
 */
import type { ArgsDef } from 'citty';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type * as z from 'zod/mini';
import type { CommandOutput, ExitCode } from '../common/errors';
import type { CommandLine } from '../common/messages';
import { renderOptions, type RenderOptions } from '../render/style';
import type { Rendered } from '../render/rendered';
import { type FlagTable, flagTable, type Parsed, parseFlags } from './flags';
import type { Declaration } from './declaration';
import { type ServerFlags, jsonWanted } from './options';
import type { AnswerOf, Loader, Op, QueryOf } from './operations';

export type { Declaration, Process } from './declaration';

/** The handlers of the operations O a command asks, each declared against the table (operations.ts) and loaded when first asked. */
export type Handlers<O extends Op> = { readonly [K in O]?: Loader<K> };

/** What the command path gives every command: who asked, how a question is answered, and the other commands. */
export interface Invocation {
  line: CommandLine;
  /** Asks the engine one question, with the caller context the shared flags give; the answer has the type the table names. */
  ask<K extends Op>(query: QueryOf<K>, flags: ServerFlags): Promise<AnswerOf<K>>;
  /** Runs another command line on the same path (a batch's requests). */
  runLine(line: CommandLine): Promise<CommandOutput>;
  /** Every command, by name: its declaration and its JSON shape (a batch's checks, the schema). */
  commands: Readonly<Record<string, Listed>>;
}

/** What a command's run gets besides its arguments: the command path, asking only the operations O it declares handlers for. */
export interface RunContext<O extends Op = never> extends Omit<Invocation, 'ask'> {
  ask<K extends O>(query: QueryOf<K>, flags: ServerFlags): Promise<AnswerOf<K>>;
}

/** What a command knows of the others. */
export type Listed = Declaration & { shape?: z.ZodMiniType };

/** A command that reads requests as they come (batch): each answered through `emit`; its exit code is the worst. */
export type Stream<A extends ArgsDef> = (
  args: Parsed<A>,
  invocation: Invocation,
  input: AsyncIterable<string>,
  emit: (line: string) => void,
) => Promise<CommandOutput>;

export interface Command<A extends ArgsDef = ArgsDef, O extends Op = Op> extends Declaration {
  args: A;
  run: (args: Parsed<A>, ctx: RunContext<O>) => Promise<CommandOutput>;
  handlers?: Handlers<O>;
  streams?: Stream<A>;
  /** The JSON document its --json prints (none for schema, whose answer is a JSON Schema); an error answers with the error shape instead. */
  shape?: z.ZodMiniType;
  /** What `servers --for` says a server can answer of it: named capabilities, each with the one it needs. */
  capabilities?: Record<string, (c: ServerCapabilities) => boolean>;
}

/** A command as the command path runs it: its words parsed by its own flags, whatever they are. */
export interface Defined<A extends ArgsDef = ArgsDef, O extends Op = Op> extends Command<A, O> {
  exec(invocation: Invocation): Promise<CommandOutput>;
  execStream?(
    invocation: Invocation,
    input: AsyncIterable<string>,
    emit: (line: string) => void,
  ): Promise<CommandOutput>;
}

/** A command, its types checked together: the run's flags are the declared ones, its questions those it declares handlers for. */
export function defineCommand<const A extends ArgsDef, O extends Op = never>(command: Command<A, O>): Defined<A, O> {
  // Made when the command is first run, then kept: the table cost every warm question 0.03 ms.
  let table: FlagTable | undefined;
  const parse = (invocation: Invocation) => {
    table ??= flagTable(command.args);
    return parseFlags(invocation.line.command, command, invocation.line.args, table);
  };
  const { streams } = command;
  return {
    ...command,
    exec: (invocation) => command.run(parse(invocation), invocation),
    ...(streams
      ? { execStream: (invocation, input, emit) => streams(parse(invocation), invocation, input, emit) }
      : {}),
  };
}

/** How one kind of answer is shown: lines for a person, a JSON document, and whether anything was found (exit 0 against 1). */
export interface Presenter<R> {
  human: (result: R, options: RenderOptions) => Rendered;
  json: (result: R, cwd: string) => object;
  found: (result: R) => boolean;
  /** The one stderr line that says nothing was found, naming what was asked (`no references to helper (lib.js:1:17)`). */
  nothing?: (result: R, cwd: string) => string;
  /** What a found answer may lack, said as its one stderr line with exit 3 (an index's files changed since). */
  incomplete?: (result: R, cwd: string) => string | undefined;
}

export function present<R>(
  result: R,
  json: boolean | undefined,
  presenter: Presenter<R>,
  line: CommandLine,
): CommandOutput {
  const found = presenter.found(result);
  const lacking = found ? presenter.incomplete?.(result, line.cwd) : undefined;
  const exit: ExitCode = lacking ? 3 : found ? 0 : 1;
  // Exit 1 with both streams empty looks like a crash: nothing found is said on stderr, with --json too (stdout stays the document).
  const nothing = lacking ?? (found ? undefined : presenter.nothing?.(result, line.cwd));
  const said = nothing ? { stderr: nothing } : {};
  const asJson = jsonWanted(json, line.env);
  if (asJson && !line.alsoText)
    return { stdout: `${JSON.stringify(presenter.json(result, line.cwd))}\n`, exit, ...said };
  const rendered = presenter.human(result, renderOptions(line.cwd, line.color));
  const { stderr, warning, cut } = rendered;
  // A cut answer ends by saying so, where its reader looks: stdout's last line (and stderr's warning, for a person).
  const stdout = cut ? `${rendered.stdout}${cut}\n` : rendered.stdout;
  if (asJson) {
    const text = [stdout.trimEnd(), stderr ?? nothing ?? '', warning ?? ''].filter(Boolean).join('\n');
    return { stdout: `${JSON.stringify(presenter.json(result, line.cwd))}\n`, exit, text, ...said };
  }
  const note = stderr ?? nothing;
  const warnings = [cut, warning].filter((w): w is string => w !== undefined);
  return { stdout, exit, ...(note ? { stderr: note } : {}), ...(warnings.length ? { warnings } : {}) };
}
