/** Every subcommand, loaded only when it runs: the command path stays small. */
import type { CommandDef } from 'citty';

// require(), not import(): see main.ts.
type Loader = () => CommandDef<any>;

export const COMMANDS: Record<string, { describe: string; load: Loader }> = {
  def: { describe: 'definition(s) of the symbol at TARGET', load: () => (require('./def') as typeof import('./def')).default },
  typedef: { describe: 'definition of the type of the symbol at TARGET', load: () => (require('./typedef') as typeof import('./typedef')).default },
  impls: { describe: 'implementations of an interface, abstract method or type', load: () => (require('./impls') as typeof import('./impls')).default },
  refs: { describe: 'references to the symbol at TARGET', load: () => (require('./refs') as typeof import('./refs')).default },
  hover: { describe: 'signature, type and documentation at TARGET', load: () => (require('./hover') as typeof import('./hover')).default },
  symbols: { describe: "a file's symbols as a tree; -w QUERY searches the workspace", load: () => (require('./symbols') as typeof import('./symbols')).default },
  calls: { describe: 'callers (or --out callees) of the function at TARGET', load: () => (require('./calls') as typeof import('./calls')).default },
  diag: { describe: 'diagnostics for files, --staged changes or --all the workspace', load: () => (require('./diag') as typeof import('./diag')).default },
  git: { describe: 'git under a safety policy (--allow-write, --allow-destructive)', load: () => (require('./git') as typeof import('./git')).default },
  servers: { describe: 'known language servers: found or not, version, running roots', load: () => (require('./servers') as typeof import('./servers')).default },
  daemon: { describe: 'status | stop | restart | logs of the background daemon', load: () => (require('./daemon') as typeof import('./daemon')).default },
};

/** Commands that take git's own words: their unknown flags are not errors. */
export const PASSTHROUGH = new Set(['git']);
