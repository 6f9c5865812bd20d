/** Every subcommand, loaded only when it runs: the command path stays small. */
import type { CommandDef } from 'citty';
import { loadEntry } from '../entries';

// Each command is its own entry point of the binary (src/entries.ts, scripts/build.ts).
type Loader = () => CommandDef<any>;

export const COMMANDS: Record<string, { describe: string; load: Loader }> = {
  def: { describe: 'definition(s) of the symbol at TARGET', load: () => loadEntry<typeof import('./def')>('cli/def').default },
  typedef: { describe: 'definition of the type of the symbol at TARGET', load: () => loadEntry<typeof import('./typedef')>('cli/typedef').default },
  impls: { describe: 'implementations of an interface, abstract method or type', load: () => loadEntry<typeof import('./impls')>('cli/impls').default },
  refs: { describe: 'references to the symbol at TARGET', load: () => loadEntry<typeof import('./refs')>('cli/refs').default },
  hover: { describe: 'signature, type and documentation at TARGET', load: () => loadEntry<typeof import('./hover')>('cli/hover').default },
  symbols: { describe: "a file's symbols as a tree; -w QUERY searches the workspace", load: () => loadEntry<typeof import('./symbols')>('cli/symbols').default },
  calls: { describe: 'callers (or --out callees) of the function at TARGET', load: () => loadEntry<typeof import('./calls')>('cli/calls').default },
  diag: { describe: 'diagnostics for files, --staged changes or --all the workspace', load: () => loadEntry<typeof import('./diag')>('cli/diag').default },
  git: { describe: 'git under a safety policy (--allow-write, --allow-destructive)', load: () => loadEntry<typeof import('./git')>('cli/git').default },
  servers: { describe: 'known language servers: found or not, version, running roots', load: () => loadEntry<typeof import('./servers')>('cli/servers').default },
  daemon: { describe: 'status | stop | restart | logs of the background daemon', load: () => loadEntry<typeof import('./daemon')>('cli/daemon').default },
};

/** Commands that take git's own words: their unknown flags are not errors. */
export const PASSTHROUGH = new Set(['git']);
