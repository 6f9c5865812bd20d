/**
 * The other end of the one path: the engine run in the command's own process, for
 * the commands whose declarations run them here (git, daemon control,
 * trust, schema), --help, and --no-daemon. The language-server half loads
 * only if a question is asked, and whatever it started is stopped before
 * the command exits.
 */
import { loadBundle } from '../bundles';
import type { TerminalBundle } from '../cli/terminal-messages';
import type { LocalEngine } from '../engine/local';
import type { Op, Operations, Question } from './operations';
import { type CommandOutput, withNotes } from '../common/errors';
import type { CommandLine } from '../common/messages';
import { type Host, runCommandLine, runStreamLine } from './run-command-line';

/** The language-server half, loaded at the first question, and its close for when the command is done. */
function localHost(line: CommandLine): Host & { close: () => Promise<void>; notes: Set<string> } {
  let engine: Promise<LocalEngine<Operations>> | undefined;
  const notes = new Set<string>();
  let shown = false;
  const terminal = () => loadBundle<TerminalBundle>('terminal');
  const start = async () =>
    (await import('../engine/local')).localEngine({
      answerers: (await import('./handlers')).ANSWERERS,
      progress: line.progress
        ? (text) => {
            shown = true;
            terminal().progress(text);
          }
        : undefined,
      log: line.env.LSPQ_DEBUG ? (text) => terminal().debug(text) : undefined,
      warn: (note) => notes.add(note),
    });
  return {
    answer: async <K extends Op>(request: Question<K>) => {
      engine ??= start();
      return (await engine).answer<K>(request);
    },
    notes,
    // The progress lines go before the answer is printed: it takes their place.
    close: async () => {
      await (await engine)?.close();
      if (shown) await terminal().clearProgress();
    },
  };
}

export async function runHere(line: CommandLine): Promise<CommandOutput> {
  const host = localHost(line);
  try {
    return withNotes(await runCommandLine(line, host), host.notes, line.json);
  } finally {
    await host.close();
  }
}

/** A batch with --no-daemon: its requests answered here, one pool for all of them. */
export async function runBatchHere(
  line: CommandLine,
  input: AsyncIterable<string>,
  emit: (answer: string) => void,
): Promise<CommandOutput> {
  const host = localHost(line);
  try {
    return await runStreamLine(line, input, emit, host);
  } finally {
    await host.close();
  }
}
