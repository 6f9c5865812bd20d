/**
 * The engine's table of answerers, derived from the list of commands: each
 * operation a command declares in its `handlers` (typed by operations.ts),
 * and each need of a server it declares in its `capabilities`. The daemon
 * and --no-daemon hand it to the engine, which knows no command by name.
 */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { Answerers, type Loaders } from '../engine/dispatch';
import { COMMANDS } from './list';
import type { Operations } from './operations';

/** Every command's handlers in one table; each command's are checked against operations.ts where it declares them. */
const LOADERS = Object.values(COMMANDS).reduce<Loaders<Operations>>(
  // biome-ignore lint/performance/noAccumulatingSpread: made once, of 23 commands; a spread keeps each command's handlers type-checked against the table
  (all, c) => ({ ...all, ...c.handlers }),
  {},
);

export const ANSWERERS = new Answerers<Operations>(
  LOADERS,
  Object.values(COMMANDS).flatMap((c) => Object.entries<(c: ServerCapabilities) => boolean>(c.capabilities ?? {})),
);
