/** Every subcommand, loaded only when it runs: the command path stays small. */
import type { CommandDef } from 'citty';

type Loader = () => Promise<CommandDef<any>>;

export const COMMANDS: Record<string, { describe: string; load: Loader }> = {
  def: { describe: 'definition(s) of the symbol at TARGET', load: () => import('./def').then((m) => m.default) },
  typedef: { describe: 'definition of the type of the symbol at TARGET', load: () => import('./typedef').then((m) => m.default) },
  impls: { describe: 'implementations of an interface, abstract method or type', load: () => import('./impls').then((m) => m.default) },
  refs: { describe: 'references to the symbol at TARGET', load: () => import('./refs').then((m) => m.default) },
  hover: { describe: 'signature, type and documentation at TARGET', load: () => import('./hover').then((m) => m.default) },
  symbols: { describe: "a file's symbols as a tree; -w QUERY searches the workspace", load: () => import('./symbols').then((m) => m.default) },
  calls: { describe: 'callers (or --out callees) of the function at TARGET', load: () => import('./calls').then((m) => m.default) },
  diag: { describe: 'diagnostics for files, --staged changes or --all the workspace', load: () => import('./diag').then((m) => m.default) },
  git: { describe: 'git under a safety policy (--allow-write, --allow-destructive)', load: () => import('./git').then((m) => m.default) },
  servers: { describe: 'known language servers: found or not, version, running roots', load: () => import('./servers').then((m) => m.default) },
  daemon: { describe: 'status | stop | restart | logs of the background daemon', load: () => import('./daemon').then((m) => m.default) },
};

/** Commands that take git's own words: their unknown flags are not errors. */
export const PASSTHROUGH = new Set(['git']);
