/**
 * The road's other end: the engine run in the command's own process, for
 * the commands the table runs here (git, daemon control), --help, and
 * --no-daemon. The language-server half loads only if a question is asked,
 * and whatever it started is stopped before the command exits.
 */
import { loadBundle } from '../bundles';
import type { CommandOutput } from '../errors';
import type { Answerer, CommandLine } from '../protocol/messages';
import { runCommandLine } from './road';
import type { LocalEngine } from '../engine/local';

export async function runHere(line: CommandLine): Promise<CommandOutput> {
  let engine: LocalEngine | undefined;
  const person = () => loadBundle('person');
  const answer: Answerer = (request) => {
    engine ??= loadBundle('engine').localEngine({
      progress: line.progress ? (text) => person().progress(text) : undefined,
      log: line.env.LSPQ_DEBUG ? (text) => person().debug(text) : undefined,
    });
    return engine.answer(request);
  };
  try {
    return await runCommandLine(line, { answer });
  } finally {
    await engine?.close();
  }
}
