/**
 * Every operation a command asks the engine, with its question and its
 * answer: the one table the questions are typed by (as lsp/requests.ts
 * types each LSP request by its answer). A command's folder declares the
 * handler of each operation it asks against this table (define.ts), the
 * command path asks by its key and gets the answer's own type, and the
 * engine dispatches by it (engine/dispatch.ts): a new operation does not
 * compile until it is here.
 */
import type { CallerContext } from '../answers/caller';
import type { DiagQuery } from '../answers/diagnostics';
import type {
  Answerer as EngineAnswerer,
  Answerers as EngineAnswerers,
  Question as EngineQuestion,
} from '../engine/dispatch';
import type { ActionsQuery, ActionsResult } from './actions/question';
import type { ApplyQuery, ApplyResult } from './apply/question';
import type { CallPathQuery, CallPathResult, CallsQuery, CallsResult } from './calls/question';
import type { DiagResult } from './diag/question';
import type { FmtQuery, FmtResult } from './fmt/question';
import type { HookQuery, HookResult } from './hook/question';
import type { HoverQuery, HoverResult } from './hover/question';
import type { SignatureQuery, SignatureResult } from './signature/question';
import type { IndexQuery, IndexResult } from './index/question';
import type { LocationsQuery, LocationsResult } from './locations/question';
import type { MvQuery, MvResult } from './mv/question';
import type { RenameQuery, RenameResult } from './rename/question';
import type { ServersForQuery, ServersForResult, ServersQuery, ServersResult } from './servers/question';
import type { SymbolsQuery, SymbolsResult, WorkspaceSymbolsQuery, WorkspaceSymbolsResult } from './symbols/question';

/** An operation whose handler takes Q (with the caller's facts) and answers R; the command asks Q without them. */
interface Asked<Q extends CallerContext & { op: string }, R> {
  query: Omit<Q, keyof CallerContext>;
  answer: R;
}

export interface Operations {
  def: Asked<LocationsQuery & CallerContext, LocationsResult>;
  typedef: Asked<LocationsQuery & CallerContext, LocationsResult>;
  impls: Asked<LocationsQuery & CallerContext, LocationsResult>;
  refs: Asked<LocationsQuery & CallerContext, LocationsResult>;
  hover: Asked<HoverQuery, HoverResult>;
  signature: Asked<SignatureQuery, SignatureResult>;
  symbols: Asked<SymbolsQuery, SymbolsResult>;
  wsymbols: Asked<WorkspaceSymbolsQuery, WorkspaceSymbolsResult>;
  calls: Asked<CallsQuery, CallsResult>;
  callPath: Asked<CallPathQuery, CallPathResult>;
  actions: Asked<ActionsQuery, ActionsResult>;
  fmt: Asked<FmtQuery, FmtResult>;
  rename: Asked<RenameQuery, RenameResult>;
  mv: Asked<MvQuery, MvResult>;
  index: Asked<IndexQuery, IndexResult>;
  diag: Asked<DiagQuery, DiagResult>;
  apply: Asked<ApplyQuery, ApplyResult>;
  hook: Asked<HookQuery, HookResult>;
  servers: Asked<ServersQuery, ServersResult>;
  serversFor: Asked<ServersForQuery, ServersForResult>;
}

/** The name of an operation. */
export type Op = keyof Operations;
/** The question a command asks for O, without the caller's facts (the command path adds those). */
export type QueryOf<O extends Op> = NoInfer<Operations[O]['query']> & { op: O };
/** What the engine answers O with. */
export type AnswerOf<O extends Op> = Operations[O]['answer'];
/** The question O's handler gets: the command's, with the caller's facts. */
export type Question<O extends Op> = EngineQuestion<Operations, O>;
/** O's handler. */
export type Answerer<O extends Op> = EngineAnswerer<Operations, O>;
/** O's handler, loaded when first asked: what a command declares. */
export type Loader<O extends Op> = () => Promise<Answerer<O>>;
/** The engine's table of every operation's handler. */
export type OperationAnswerers = EngineAnswerers<Operations>;
