/**
 * The engine's command half, and the one road every command travels: a
 * command line in (from the command's process, through the daemon or
 * here), parsed by the command's declared flags, answered through the host,
 * rendered, and its exit code decided. Nothing here prints.
 */
import { loadBundle } from '../bundles';
import { errorOutput, usage, type CommandOutput } from '../errors';
import type { CommandLine } from '../protocol/messages';
import { runContext, type Host, type Run } from './context';
import { daemon } from './daemon';
import { diag } from './diag';
import { actions, fmt, mv, rename } from './edits';
import { parseFlags } from './flags';
import { git } from './git';
import { index } from './indexer';
import { calls, def, hover, impls, refs, symbols, typedef } from './questions';
import { schema } from './schema';
import { servers } from './servers';
import { trust } from './trust';
import { isCommand, type CommandName } from './table';

/** What each command of the table does. */
/** batch reads its requests as a stream (commands/batch.ts): it reaches here only when run where no stream is (inside a batch). */
const batch: Run<'batch'> = async () => {
  throw usage("'batch' does not run in a batch; run it on its own");
};

const RUN: { [N in CommandName]: Run<N> } = {
  schema,
  def,
  typedef,
  impls,
  refs,
  hover,
  symbols,
  calls,
  actions,
  fmt,
  rename,
  mv,
  index,
  diag,
  batch,
  git,
  servers,
  trust,
  daemon,
};

function runNamed<N extends CommandName>(name: N, line: CommandLine, host: Host): Promise<CommandOutput> {
  return RUN[name](parseFlags(name, line.args), runContext(line, host));
}

/**
 * Runs one command line for `host`. Every failure becomes the output the
 * command prints: the error line, the JSON error document with --json, the
 * exit code of the contract.
 */
export async function runCommandLine(line: CommandLine, host: Host): Promise<CommandOutput> {
  try {
    const name = line.command;
    if (!isCommand(name)) throw usage(`unknown command '${name}'; run 'lspq --help' for the list`);
    if (line.help) return { stdout: await loadBundle('usage').helpFor(name), exit: 0 };
    return await runNamed(name, line, host);
  } catch (err) {
    host.report?.(err);
    return errorOutput(err, line.json);
  }
}
