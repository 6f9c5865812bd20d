/**
 * The road every query command travels: a plain request, answered by the
 * engine (in the daemon, or here with --no-daemon), rendered by a pure
 * renderer, with the contract's exit code. Nothing here prints; main.ts
 * (or the command a daemon answers for) does.
 */
import type { CommandOutput, ExitCode } from '../errors';
import type { Query, QueryRequest } from '../protocol/messages';
import { renderOptions, type RenderOptions } from '../render/style';
import type { Rendered } from '../render/types';
import { processEnv, wantsColor } from './_process';
import { callerContext, jsonWanted, useDaemon } from './_shared';

export type { CommandOutput } from '../errors';

/**
 * Who asked: where they stand, their environment, whether their output is
 * coloured, and how a question reaches the handlers. The command fills it
 * from its own process; the daemon from the command line it was sent, so a
 * command runs the same in either place.
 */
export interface Caller {
  cwd: string;
  env: Record<string, string>;
  color: boolean;
  /** In the daemon: the handlers themselves. Unset in the command, which asks the daemon or (--no-daemon) the engine. */
  answer?: (request: QueryRequest) => Promise<unknown>;
  /** Told of an error before it becomes the command's output: the daemon logs the stack of an internal one. */
  report?: (err: unknown) => void;
}

export interface Presenter<R> {
  human: (result: R, options: RenderOptions) => Rendered;
  json: (result: R, cwd: string) => object;
  /** "Something found" decides exit 0 against 1. */
  found: (result: R) => boolean;
}

/** This process as the caller. */
export function localCaller(): Caller {
  const env = processEnv();
  return { cwd: process.cwd(), env, color: wantsColor(env) };
}

/** The caller a command was run for (citty's `data`), or this process. */
export function callerOf(data: unknown): Caller {
  return (data as Caller | undefined) ?? localCaller();
}

export type OnProgress = (p: { done: number; total: number; what: string }) => void;

export async function ask(request: QueryRequest, daemon: boolean, onProgress?: OnProgress): Promise<unknown> {
  if (daemon) {
    const { askDaemon } = require('./daemon-client') as typeof import('./daemon-client');
    return askDaemon(request, { onProgress });
  }
  const { answerHere } = (require('../engine-loader') as typeof import('../engine-loader')).loadEngine();
  return answerHere(request, onProgress);
}

export async function runQuery<R>(query: Query, args: Record<string, unknown>, presenter: Presenter<R>, caller: Caller): Promise<CommandOutput> {
  const request = { ...query, ...callerContext(args, caller.cwd, caller.env) } as QueryRequest;
  const result = (await (caller.answer ? caller.answer(request) : ask(request, useDaemon(args, caller.env)))) as R;
  return present(result, args, presenter, caller);
}

export function present<R>(result: R, args: Record<string, unknown>, presenter: Presenter<R>, caller: Omit<Caller, 'answer'>): CommandOutput {
  const exit: ExitCode = presenter.found(result) ? 0 : 1;
  if (jsonWanted(args, caller.env)) return { stdout: `${JSON.stringify(presenter.json(result, caller.cwd))}\n`, exit };
  const rendered = presenter.human(result, renderOptions(caller.cwd, caller.color));
  return { ...rendered, exit };
}
