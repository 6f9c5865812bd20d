/**
 * The `engine` bundle's entry (src/bundles.ts): the one path every command
 * travels, its end in the command's own process, and the daemon. Loading
 * it evaluates the command path (the commands' runs and renderers) and nothing of
 * the language-server half: the handlers load when their first question is
 * asked, the daemon when it starts.
 */
import type { ExitCode } from './common/errors';

export { runCommandLine, runStreamLine } from './commands/run-command-line';
export { runBatchHere, runHere } from './commands/in-process';

export async function runDaemon(): Promise<ExitCode> {
  // The binary starts with the JIT held back (scripts/build.ts); the daemon
  // runs long and hot (JSON-RPC, position conversion), so it gets the normal JIT.
  Bun.unsafe.setJITPolicy(1);
  return (await import('./daemon/run-daemon')).runDaemon();
}

/** `lspq __index-table FILE ROOT REBASE OUT`: an index made into its table, in a process of its own (index-tables.ts). */
export async function makeIndexTable(args: string[]): Promise<ExitCode> {
  const [file, root, rebase, out] = args;
  if (!file || !root || !out) return 2;
  const { ScipIndex } = await import('./scip/scip-index');
  const { writeTable } = await import('./scip/index-table');
  const { leftOutOfIndex } = await import('./engine/index-left-out');
  const index = ScipIndex.load(file, root, rebase === '1');
  writeTable(index, out, await leftOutOfIndex(index));
  return 0;
}

export type EngineBundle = typeof import('./engine-bundle');
