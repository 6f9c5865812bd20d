/**
 * Every command of lspq, in the order --help lists them: adding one is a
 * folder (src/commands/NAME/, its index.ts making it with defineCommand)
 * and one line here. Everything else that needs the commands is derived
 * from this list: the command's process's table (declarations.ts, inlined
 * when the binary is built), the road's runs (road.ts), the engine's
 * handlers (engine/answer.ts), the JSON Schema (schema) and what
 * `servers --for` says a server can answer.
 */
import { actions } from './actions';
import { batch } from './batch';
import { calls } from './calls';
import { completion } from './completion';
import { daemon } from './daemon';
import { def } from './def';
import { diag } from './diag';
import { fmt } from './fmt';
import { git } from './git';
import { hover } from './hover';
import { impls } from './impls';
import { index } from './index/index';
import { mcp } from './mcp';
import { mv } from './mv';
import { refs } from './refs';
import { rename } from './rename';
import { schema } from './schema';
import { servers } from './servers';
import { symbols } from './symbols';
import { trust } from './trust';
import { typedef } from './typedef';

export const COMMANDS = {
  def,
  typedef,
  impls,
  refs,
  hover,
  symbols,
  calls,
  actions,
  fmt,
  rename,
  mv,
  index,
  diag,
  batch,
  git,
  schema,
  trust,
  servers,
  daemon,
  completion,
  mcp,
};

export type CommandName = keyof typeof COMMANDS;

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
