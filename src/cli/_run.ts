/**
 * The road every query command travels: a plain request, asked of the
 * daemon (or answered here with --no-daemon), rendered by a pure renderer,
 * with the contract's exit code. Nothing here prints; main.ts does.
 */
import type { ExitCode } from '../errors';
import type { CallerContext, Query, QueryRequest } from '../protocol/messages';
import { renderOptions, type RenderOptions } from '../render/style';
import type { Rendered } from '../render/types';
import { callerContext, jsonWanted, useDaemon } from './_shared';

export interface CommandOutput {
  stdout: string;
  stderr?: string;
  exit: ExitCode;
}

export interface Presenter<R> {
  human: (result: R, options: RenderOptions) => Rendered;
  json: (result: R, cwd: string) => object;
  /** "Something found" decides exit 0 against 1. */
  found: (result: R) => boolean;
}

export function processEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

interface TtyBinding {
  isTTY?: (fd: number) => boolean;
}

/**
 * Whether a file descriptor is a terminal. Bun's tty_wrap binding is
 * isatty(3) itself and costs microseconds; loading node:tty cost about 3 ms.
 */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    const binding = (process as unknown as { binding?: (name: string) => TtyBinding }).binding?.('tty_wrap');
    if (typeof binding?.isTTY === 'function') return binding.isTTY(fd);
  } catch {
    // not in this runtime: ask node:tty
  }
  return (require('node:tty') as typeof import('node:tty')).isatty(fd);
}

export function wantsColor(env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTerminal(1);
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

export async function runQuery<R>(query: Query, args: Record<string, unknown>, presenter: Presenter<R>, context?: CallerContext): Promise<CommandOutput> {
  const env = processEnv();
  const cwd = process.cwd();
  const request = { ...query, ...(context ?? callerContext(args, cwd, env)) } as QueryRequest;
  const result = (await ask(request, useDaemon(args, env))) as R;
  return present(result, args, presenter, cwd, env);
}

export function present<R>(result: R, args: Record<string, unknown>, presenter: Presenter<R>, cwd: string, env: Record<string, string | undefined>): CommandOutput {
  const exit: ExitCode = presenter.found(result) ? 0 : 1;
  if (jsonWanted(args, env)) return { stdout: `${JSON.stringify(presenter.json(result, cwd))}\n`, exit };
  const rendered = presenter.human(result, renderOptions(cwd, wantsColor(env)));
  return { ...rendered, exit };
}
