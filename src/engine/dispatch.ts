/**
 * A question to its handler, typed by a table of operations (as
 * lsp/requests.ts types each LSP request by its answer): the caller gives
 * the table (the commands declare their handlers against theirs;
 * commands/handlers.ts makes it), each handler loaded when its question is
 * first asked, its answer the type the table names.
 */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type { CallerContext } from '../answers/caller';
import { Leases } from '../lsp/leases';
import type { Session } from '../lsp/manager';
import { leftOutLine, Trust } from '../trust/decision';
import { Skipped, skippedError, skippedFiles, skippedLine } from '../common/file-size';
import type { EngineContext, HandlerContext } from './context';

/** One operation: the question a command asks (without the caller's facts, which the command path adds) and its answer. */
export interface Operation {
  query: { op: string };
  answer: unknown;
}

/** Operations by name, each named as its own question's `op`. */
export type Table<T> = { [O in keyof T]: Operation };

/** An operation's question as its handler gets it: the command's question, its op, and the caller's facts (the op alone names O when inferred). */
export type Question<T extends Table<T>, O extends keyof T> = NoInfer<T[O]['query']> & { op: O } & CallerContext;

/** What answers operation O of table T. */
export type Answerer<T extends Table<T>, O extends keyof T> = (
  request: Question<T, O>,
  ctx: HandlerContext,
) => Promise<T[O]['answer']>;

/** Each operation's handler, loaded when it is first asked (a command's handler.ts is imported only then). */
export type Loaders<T extends Table<T>> = { readonly [O in keyof T]?: () => Promise<Answerer<T, O>> };

/** What answers questions: each operation's handler, and what each command needs of a server. */
export class Answerers<T extends Table<T>> {
  // A handler imported once: importing it again cost every warm question 0.05 ms.
  private readonly loaded: { [O in keyof T]?: Promise<Answerer<T, O>> } = {};

  constructor(
    private readonly loaders: Loaders<T>,
    /** Each command's (and fmt-range's, symbols-w's) need of a server, for `servers --for`. */
    readonly capabilities: readonly [string, (c: ServerCapabilities) => boolean][],
  ) {}

  /** The handler of `op`, loaded at its first question (a failed load is tried again at the next). */
  handler<O extends keyof T & string>(op: O): Promise<Answerer<T, O>> {
    const load = Object.hasOwn(this.loaders, op) ? this.loaders[op] : undefined;
    if (!load) throw new Error(`no handler answers '${op}'`);
    const known = this.loaded[op];
    if (known) return known;
    const loading = load().catch((err: unknown) => {
      this.loaded[op] = undefined;
      throw err;
    });
    this.loaded[op] = loading;
    return loading;
  }
}

/**
 * Answers one question; the leases it took on servers are given back
 * however it ends, and what it left out as untrusted is said. A file of
 * the workspace it skipped (a FIFO, a device, one past its cap) makes the
 * answer not whole: exit 3 naming it, or, where the question failed on its
 * own, a note beside that error.
 */
export async function dispatch<T extends Table<T>, O extends keyof T & string>(
  request: Question<T, O>,
  ctx: EngineContext,
  answerers: Answerers<T>,
): Promise<T[O]['answer']> {
  const op: O = request.op;
  const handler = await answerers.handler(op);
  const leases = new Leases<Session>();
  const trust = new Trust(request.env);
  const skips = new Skipped(request.cwd);
  let answered = false;
  try {
    const answer = await skippedFiles.run(skips, () =>
      handler(request, {
        ...ctx,
        leases,
        trust,
        capabilities: answerers.capabilities,
        withheld: new Map(),
      }),
    );
    answered = true;
    if (skips.size > 0) throw skippedError(skips, 'the answer could depend on it');
    return answer;
  } finally {
    leases.releaseAll();
    const finding = trust.leftOut.length ? trust.finding : undefined;
    const line = leftOutLine(trust.leftOut, finding && 'none' in finding ? finding.none : undefined);
    if (line) ctx.warn?.(line);
    const skipped = answered ? undefined : skippedLine(skips);
    if (skipped) ctx.warn?.(skipped);
  }
}
