/** Every subcommand, loaded only when it runs: the command path stays small. */
import type { CommandDef } from 'citty';
import { loadEntry } from '../entries';

type Loader = () => CommandDef<any>;

/**
 * Commands that are entry points of their own (src/entries.ts): git's policy
 * and diag's git plumbing are most of the command code, and a bundle's size
 * is paid by every command that starts from it. The navigation questions stay
 * in main.js: loading any second file costs about 0.4 ms, and a warm `def`
 * was 0.4 ms faster bundled than as its own entry point.
 */
export const COMMAND_ENTRIES = ['diag', 'git', 'servers', 'daemon'] as const;

const ownEntry =
  (name: (typeof COMMAND_ENTRIES)[number]): Loader =>
  () =>
    loadEntry<{ default: CommandDef<any> }>(`cli/${name}`).default;

// require(), not import(): see main.ts.
export const COMMANDS: Record<string, { describe: string; load: Loader }> = {
  def: { describe: 'definition(s) of the symbol at TARGET', load: () => (require('./def') as typeof import('./def')).default },
  typedef: { describe: 'definition of the type of the symbol at TARGET', load: () => (require('./typedef') as typeof import('./typedef')).default },
  impls: { describe: 'implementations of an interface, abstract method or type', load: () => (require('./impls') as typeof import('./impls')).default },
  refs: { describe: 'references to the symbol at TARGET', load: () => (require('./refs') as typeof import('./refs')).default },
  hover: { describe: 'signature, type and documentation at TARGET', load: () => (require('./hover') as typeof import('./hover')).default },
  symbols: { describe: "a file's symbols as a tree; -w QUERY searches the workspace", load: () => (require('./symbols') as typeof import('./symbols')).default },
  calls: { describe: 'callers (or --out callees) of the function at TARGET', load: () => (require('./calls') as typeof import('./calls')).default },
  diag: { describe: 'diagnostics for files, --staged changes or --all the workspace', load: ownEntry('diag') },
  git: { describe: 'git under a safety policy (--allow-write, --allow-destructive)', load: ownEntry('git') },
  servers: { describe: 'known language servers: found or not, version, running roots', load: ownEntry('servers') },
  daemon: { describe: 'status | stop | restart | logs of the background daemon', load: ownEntry('daemon') },
};

/** Commands that take git's own words: their unknown flags are not errors. */
export const PASSTHROUGH = new Set(['git']);
