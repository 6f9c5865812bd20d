/**
 * The engine's table of answerers, derived from the list of commands: each
 * operation a command declares in its `handlers`, and each need of a server
 * it declares in its `capabilities`. The daemon and --no-daemon hand it to
 * the engine, which knows no command by name.
 */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { Answerers } from '../engine/dispatch';
import type { Handler } from '../engine/context';
import { COMMANDS } from './list';

/** A loader that imports its handler once: importing it again cost every warm question 0.05 ms. */
function once(load: () => Promise<Handler>): () => Promise<Handler> {
  let loaded: Promise<Handler> | undefined;
  return () =>
    (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
}

export const ANSWERERS: Answerers = {
  handlers: new Map(
    Object.values(COMMANDS).flatMap((c) =>
      Object.entries<() => Promise<Handler>>(c.handlers ?? {}).map(([op, load]) => [op, once(load)] as const),
    ),
  ),
  capabilities: Object.values(COMMANDS).flatMap((c) =>
    Object.entries<(c: ServerCapabilities) => boolean>(c.capabilities ?? {}),
  ),
};
