/**
 * lspq's entry, the command's process. It names the command line's
 * command, sends the line with the facts the engine needs (cwd,
 * environment, whether stdout and stderr are terminals) to where the
 * command table says the engine runs it (the daemon, or here), prints the
 * output that comes back and exits with its code. Parsing, answering,
 * rendering and the exit code are the engine's (src/commands/run-command-line.ts).
 * It knows the commands from their declarations alone, inlined as data
 * when the binary is built (src/commands/declarations.ts).
 *
 * Everything past this file loads with require(), not import(): in the
 * compiled binary an import()ed ES module is still evaluated at start-up
 * (citty and consola alone cost 5 ms), a require()d one only when reached.
 */
import { BUILD } from './common/build-info';
import { loadBundle } from './bundles';
import { forward, forwardBatch, forwardIfRunning } from './cli/forward';
import { asksStdin, scanWords } from './common/words';
import { didYouMean } from './common/nearest';
import { isTerminal, wantsColor } from './cli/terminal';
import { declarations } from './commands/declarations' with { type: 'macro' };
import type { CommandName } from './commands/list';
import { errorOutput, usage, type CommandOutput, type ExitCode } from './common/errors';
import type { CommandLine } from './common/messages';
import type { EngineBundle } from './engine-bundle';
import type { TerminalBundle } from './cli/terminal-messages';
import type { HelpBundle } from './commands/help';
import type { BoxBundle } from './box/box-entry';

/** Every command's declaration, inlined as data when the binary is built: no command's code is loaded here. */
const COMMANDS = declarations();
const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

// The words, read once: everything below uses what this scan found.
const words = scanWords(
  process.argv.slice(2),
  process.env,
  (name) => isCommand(name) && COMMANDS[name].passthrough === true,
);

async function write(fd: 1 | 2, text: string): Promise<void> {
  if (text) await Bun.write(fd === 1 ? Bun.stdout : Bun.stderr, text);
}

/** Progress lines were shown on the terminal (the terminal bundle is loaded): they are erased before the answer. */
let progressShown = false;
const showProgress = (text: string) => {
  progressShown = true;
  loadBundle<TerminalBundle>('terminal').progress(text);
};

async function print(out: CommandOutput): Promise<ExitCode> {
  if (progressShown) await loadBundle<TerminalBundle>('terminal').clearProgress();
  await write(1, out.stdout);
  if (out.warnings?.length) await warn(out.warnings);
  if (out.stderr) await write(2, `lspq: ${out.stderr}\n`);
  return out.exit;
}

/**
 * A warning for a person at a terminal goes through consola. For a script
 * or an agent (stderr a pipe) it is one plain, stable line: loading consola
 * cost 14 ms, most of a warm question, and a cut answer is a common one.
 */
async function warn(warnings: readonly string[]): Promise<void> {
  if (isTerminal(2)) return loadBundle<TerminalBundle>('terminal').warn(warnings);
  await write(2, warnings.map((w) => `lspq: warning: ${w}\n`).join(''));
}

const fail = (err: unknown) => print(errorOutput(err, words.json));

function topUsage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return [
    `lspq ${BUILD.version}: ask language servers about your code from the shell`,
    '',
    'Usage: lspq COMMAND [ARGS] [--json] [--root DIR] [--server ID] [--timeout S] [--limit N] [--no-daemon]',
    '',
    'Commands:',
    ...rows,
    '',
    "Targets: FILE:LINE:COL, FILE:LINE:NAME (--nth K), FILE:LINE (its one name), 'FILE:LINE:TEXT<|>TEXT' (the marker's place), or --symbol NAME; actions take FILE:LINE and FILE:START-END as lines.",
    "Run 'lspq help COMMAND' (or 'lspq COMMAND --help') for a command's flags and examples, 'lspq help agents' for a page to give an agent.",
    '',
  ].join('\n');
}

/** An unknown command's error, with the command it most likely misspells. */
function unknownCommand(name: string): Error {
  const meant = didYouMean(name, [...Object.keys(COMMANDS), 'help']);
  const hint = meant ? `did you mean '${meant}'? ` : '';
  return usage(`unknown command '${name}'; ${hint}run 'lspq --help' for the list`);
}

async function run(): Promise<ExitCode> {
  let { command: name, args } = words;
  let help = words.help;
  // `lspq help def` is `lspq def --help`, as with git and gh.
  if (name === 'help' && args[0] !== undefined && args[0] !== 'agents' && !args[0].startsWith('-')) {
    [name, ...args] = args as [string, ...string[]];
    // A command whose words are its own (git) reads its own --help.
    if (isCommand(name) && COMMANDS[name].passthrough) args = ['--help', ...args];
    else help = true;
  }
  if (name === '__daemon') return loadBundle<EngineBundle>('engine').runDaemon();
  if (name === '__index-table') return loadBundle<EngineBundle>('engine').makeIndexTable(args);
  if (name === '__box') return loadBundle<BoxBundle>('box').runBox(args);
  if (name === 'help' && args[0] === 'agents') {
    await write(1, loadBundle<HelpBundle>('help').agents());
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Asked for, the usage is the answer (stdout); a missing command is an error, and errors go to stderr.
    await write(name === undefined ? 2 : 1, topUsage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    await write(1, `lspq ${BUILD.version} (${BUILD.id})\n`);
    return 0;
  }
  if (!isCommand(name)) {
    if (name.startsWith('-'))
      throw usage(`'${name}' needs a command (lspq COMMAND ${name} ...); run 'lspq --help' for the list`);
    throw unknownCommand(name);
  }
  const spec = COMMANDS[name];
  // process.env as it is, not setVariables()'s copy (a tenth of a millisecond): Bun's holds no unset variable,
  // and JSON would leave one out.
  const env = process.env as Record<string, string>;
  // Progress is for a person at a terminal reading lines, not for --json.
  const line: CommandLine = {
    command: name,
    args,
    cwd: process.cwd(),
    env,
    color: wantsColor(env),
    progress: isTerminal(2) && !words.json,
    json: words.json,
    help,
    // A command that may write names its edit: if the daemon dies under it, the edit is asked after, never sent again.
    // A batch names its edits after its own id (ID-N for its N-th request), to ask after them the same way.
    ...((spec.writes || spec.stream) && !help ? { editId: crypto.randomUUID() } : {}),
    ...(words.timeoutMs !== undefined
      ? { timeoutMs: words.timeoutMs }
      : spec.timeoutSeconds
        ? { timeoutMs: spec.timeoutSeconds * 1000 }
        : {}),
  };
  // Read whole where the words ask for it (diag --patch -): the engine, in the daemon, has no stdin of ours.
  if (!help && asksStdin(spec.stdin, args, (flag) => takesValue(spec.args, flag))) line.stdin = await readStdin();
  // --help is answered here: asking it must not start a daemon.
  const here = spec.process === 'here' || words.noDaemon || help;
  if (spec.stream && !help) return print(await batch(line, here));
  if (!here && spec.process === 'look') {
    // The running daemon knows its servers; with none running, this process answers and none is started.
    const answered = await forwardIfRunning(line);
    if (answered) return print(answered);
  } else if (!here) return print(await forward(line, showProgress));
  return print(await loadBundle<EngineBundle>('engine').runHere(line));
}

/** Whether `flag` (a name or alias, without its dashes) is one of the declared flags that take a value. */
function takesValue(args: (typeof COMMANDS)[keyof typeof COMMANDS]['args'], flag: string): boolean {
  return Object.entries(args).some(
    ([key, def]) =>
      def.type === 'string' && (key === flag || ('alias' in def && [def.alias ?? []].flat().includes(flag))),
  );
}

/** Past this, stdin does not fit the one line a command travels in to the daemon. */
const STDIN_MAX_BYTES = 3 * 1024 * 1024;

async function readStdin(): Promise<string> {
  const text = await Bun.stdin.text();
  if (text.length > STDIN_MAX_BYTES)
    throw usage(`stdin holds more than ${STDIN_MAX_BYTES / 1_048_576} MB; give it as a file instead of '-'`);
  return text;
}

/** A batch: stdin's lines to the engine, each answer line to stdout as it comes, in order. */
async function batch(line: CommandLine, here: boolean): Promise<CommandOutput> {
  const { stdinLines } = require('./cli/stdin-lines') as typeof import('./cli/stdin-lines');
  let written = Promise.resolve();
  const onAnswer = (answer: string) => {
    written = written.then(() => write(1, `${answer}\n`));
  };
  const out = here
    ? await loadBundle<EngineBundle>('engine').runBatchHere(line, stdinLines(), (answer) => onAnswer(answer.trimEnd()))
    : await forwardBatch(line, { input: stdinLines(), onAnswer }, showProgress);
  await written;
  return out;
}

/**
 * Every output is written (awaited) before this; nothing registers exit
 * handlers. process.reallyExit skips the runtime's teardown, which cost
 * about 1 ms of every command (hyperfine: 5.4 against 4.6 ms for a
 * compiled hello-world).
 */
function exitNow(code: ExitCode): never {
  // process.reallyExit is the runtime's own, left out of its public types.
  const { reallyExit } = process as unknown as { reallyExit?: (code: number) => never };
  if (typeof reallyExit === 'function') reallyExit.call(process, code);
  process.exit(code);
}

// No top-level await: the binary is compiled to bytecode as CommonJS for a faster start.
void run()
  .catch(fail)
  .then((code) => (words.command === '__daemon' ? process.exit(code) : exitNow(code)));
