/**
 * The road's other end: the engine run in the command's own process, for
 * the commands the table runs here (git, daemon control), --help, and
 * --no-daemon. The language-server half loads only if a question is asked,
 * and whatever it started is stopped before the command exits.
 */
import { loadBundle } from '../bundles';
import { type CommandOutput, withNotes } from '../errors';
import type { CommandLine } from '../protocol/messages';
import type { Answerer } from '../queries';
import { runBatchLine } from './batch';
import { runCommandLine } from './road';
import type { LocalEngine } from '../engine/local';

/** The language-server half, loaded at the first question, and its close for when the command is done. */
function localHost(line: CommandLine): { answer: Answerer; close: () => Promise<void>; notes: Set<string> } {
  let engine: LocalEngine | undefined;
  const notes = new Set<string>();
  let shown = false;
  const person = () => loadBundle('person');
  const answer: Answerer = (request) => {
    engine ??= loadBundle('engine').localEngine({
      progress: line.progress
        ? (text) => {
            shown = true;
            person().progress(text);
          }
        : undefined,
      log: line.env.LSPQ_DEBUG ? (text) => person().debug(text) : undefined,
      warn: (note) => notes.add(note),
    });
    return engine.answer(request);
  };
  return {
    answer,
    notes,
    // The progress lines go before the answer is printed: it takes their place.
    close: async () => {
      await engine?.close();
      if (shown) await person().clearProgress();
    },
  };
}

export async function runHere(line: CommandLine): Promise<CommandOutput> {
  const host = localHost(line);
  try {
    return withNotes(await runCommandLine(line, host), host.notes);
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
    return await runBatchLine(line, input, emit, host);
  } finally {
    await host.close();
  }
}
