/**
 * Every command of lspq, in the order --help lists them: adding one is a
 * folder (src/commands/NAME/, its command.ts making it with defineCommand)
 * and one line here. Everything else that needs the commands is derived
 * from this list: the command's process's table (declarations.ts, inlined
 * when the binary is built), the command path's runs (run-command-line.ts), the engine's
 * handlers (handlers.ts), the JSON Schema (schema) and what
 * `servers --for` says a server can answer.
 */
import { actions } from './actions/command';
import { apply } from './apply/command';
import { batch } from './batch/command';
import { calls } from './calls/command';
import { completion } from './completion/command';
import { daemon } from './daemon/command';
import { def } from './def/command';
import { diag } from './diag/command';
import { fmt } from './fmt/command';
import { git } from './git/command';
import { hook } from './hook/command';
import { hover } from './hover/command';
import { impls } from './impls/command';
import { index } from './index/command';
import { mcp } from './mcp/command';
import { mv } from './mv/command';
import { refs } from './refs/command';
import { rename } from './rename/command';
import { schema } from './schema/command';
import { servers } from './servers/command';
import { signature } from './signature/command';
import { symbols } from './symbols/command';
import { trust } from './trust/command';
import { typedef } from './typedef/command';

export const COMMANDS = {
  def,
  typedef,
  impls,
  refs,
  hover,
  signature,
  symbols,
  calls,
  actions,
  fmt,
  rename,
  mv,
  index,
  diag,
  apply,
  batch,
  git,
  schema,
  trust,
  servers,
  daemon,
  completion,
  hook,
  mcp,
};

export type CommandName = keyof typeof COMMANDS;

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
