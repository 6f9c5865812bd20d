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

export const ANSWERERS: Answerers = {
  handlers: new Map(Object.values(COMMANDS).flatMap((c) => Object.entries<() => Promise<Handler>>(c.handlers ?? {}))),
  capabilities: Object.values(COMMANDS).flatMap((c) =>
    Object.entries<(c: ServerCapabilities) => boolean>(c.capabilities ?? {}),
  ),
};
