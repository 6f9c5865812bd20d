/**
 * lspq's entry: picks the subcommand, runs it (or, for a question about
 * code, has the daemon run it), prints what comes back and exits with its
 * code. Errors become output in one place (errorOutput in errors.ts), here
 * or in the daemon.
 *
 * Everything else past this file loads with require(), not import(): in
 * the compiled binary an import()ed ES module is still evaluated at
 * start-up (citty and consola alone cost 5 ms), a require()d one only when
 * reached.
 */
import { errorOutput, jsonInArgv, LspqError, type CommandOutput, type ExitCode } from './errors';
import { BUILD } from './build-info';
import { loadEntry } from './entries';
// Static: small, and on every question's path (a require() here costs its
// module wrapper, about 0.3 ms each in the interpreter the command runs in).
import { COMMANDS, NAVIGATION_COMMANDS, PASSTHROUGH, navigation } from './cli/index';
import { forward } from './cli/daemon-client';

const argv = process.argv.slice(2);

async function write(fd: 1 | 2, text: string): Promise<void> {
  if (text) await Bun.write(fd === 1 ? Bun.stdout : Bun.stderr, text);
}

async function print(out: CommandOutput): Promise<ExitCode> {
  await write(1, out.stdout);
  if (out.stderr) await write(2, `lspq: ${out.stderr}\n`);
  return out.exit;
}

const fail = (err: unknown) => print(errorOutput(err, jsonInArgv(argv, process.env)));

/** --no-daemon (or LSPQ_NO_DAEMON=1): answered in this process; the daemon is neither asked nor started. */
function answerHere(words: readonly string[]): boolean {
  if (process.env.LSPQ_NO_DAEMON === '1') return true;
  // A plain loop: the first call of a builtin such as Array.prototype.some compiles it (0.1-0.2 ms).
  for (let i = 0; i < words.length; i++) if (words[i] === '--no-daemon' || words[i]!.startsWith('--daemon=')) return true;
  return false;
}

async function topUsage(): Promise<string> {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.describe}`);
  return [
    `lspq ${BUILD.version}: ask language servers about your code from the shell`,
    '',
    'Usage: lspq COMMAND [ARGS] [--json] [--root DIR] [--server ID] [--timeout S] [--limit N] [--no-daemon]',
    '',
    'Commands:',
    ...rows,
    '',
    'Targets: FILE:LINE:COL, FILE:LINE:NAME (--nth K), or --symbol NAME.',
    "Run 'lspq COMMAND --help' for a command's flags.",
    '',
  ].join('\n');
}

async function run(): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === '__daemon') {
    const { runDaemon } = (require('./engine-loader') as typeof import('./engine-loader')).loadEngine();
    return runDaemon();
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Asked for, the usage is the answer (stdout); a missing command is an error, and errors go to stderr.
    await write(name === undefined ? 2 : 1, await topUsage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    await write(1, `lspq ${BUILD.version} (${BUILD.id})\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) throw new LspqError('usage', `unknown command '${name}'; run 'lspq --help' for the list`);
  const help = !PASSTHROUGH.has(name) && (rest.includes('--help') || rest.includes('-h'));
  if (NAVIGATION_COMMANDS.has(name) && !help) {
    // A question about code: the daemon runs the whole command line; this process only prints.
    if (!answerHere(rest)) return print(await forward(name, rest));
    const here = navigation();
    return print(await here.runCommandLine(name, rest, here.localCaller()));
  }
  const command = entry.load();
  if (help) {
    const { renderUsage } = loadEntry<typeof import('./cli/_usage')>('cli/_usage');
    // citty marks usage up with backticks; plain text reads better in a terminal.
    await write(1, `${(await renderUsage(command, { meta: { name: 'lspq' } })).replace(/`/g, '')}\n`);
    return 0;
  }
  const { parseFlags } = require('./cli/_flags') as typeof import('./cli/_flags');
  // git takes its words raw (git's grammar is not lspq's); every other command by its definition.
  const args = PASSTHROUGH.has(name) ? { _: [...rest] } : parseFlags(name, rest, command);
  const result: unknown = await command.run?.({ rawArgs: rest, args, cmd: command } as Parameters<NonNullable<typeof command.run>>[0]);
  return print(result as CommandOutput);
}

/**
 * Every output is written (awaited) before this; nothing registers exit
 * handlers. process.reallyExit skips the runtime's teardown, which cost
 * about 1 ms of every command (hyperfine: 5.4 against 4.6 ms for a
 * compiled hello-world).
 */
function exitNow(code: ExitCode): never {
  const { reallyExit } = process as unknown as { reallyExit?: (code: number) => never };
  if (typeof reallyExit === 'function') reallyExit.call(process, code);
  process.exit(code);
}

// No top-level await: the binary is compiled to bytecode as CommonJS for a faster start.
void run()
  .catch(fail)
  .then((code) => (argv[0] === '__daemon' ? process.exit(code) : exitNow(code)));
