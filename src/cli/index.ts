/** Every subcommand, loaded only when it runs: the command path stays small. */
import type { CommandDef } from 'citty';
import { loadEntry } from '../entries';

type Loader = () => CommandDef<any>;

/**
 * Commands that are entry points of their own (src/entries.ts): a bundle's
 * size is paid by every command that starts from it, so main.js holds only
 * the dispatch and the daemon client.
 */
export const COMMAND_ENTRIES = ['diag', 'git', 'servers', 'daemon'] as const;

/**
 * The questions about code: one more entry point (cli/navigation), which
 * the daemon runs for a command that forwards its command line.
 */
export const NAVIGATION_COMMANDS = new Set(['def', 'typedef', 'impls', 'refs', 'hover', 'symbols', 'calls']);

export function navigation(): typeof import('./navigation') {
  return loadEntry<typeof import('./navigation')>('cli/navigation');
}

const ownEntry =
  (name: (typeof COMMAND_ENTRIES)[number]): Loader =>
  () =>
    loadEntry<{ default: CommandDef<any> }>(`cli/${name}`).default;

const navigationEntry =
  (name: string): Loader =>
  () =>
    navigation().NAVIGATION[name]!;

export const COMMANDS: Record<string, { describe: string; load: Loader }> = {
  def: { describe: 'definition(s) of the symbol at TARGET', load: navigationEntry('def') },
  typedef: { describe: 'definition of the type of the symbol at TARGET', load: navigationEntry('typedef') },
  impls: { describe: 'implementations of an interface, abstract method or type', load: navigationEntry('impls') },
  refs: { describe: 'references to the symbol at TARGET', load: navigationEntry('refs') },
  hover: { describe: 'signature, type and documentation at TARGET', load: navigationEntry('hover') },
  symbols: { describe: "a file's symbols as a tree; -w QUERY searches the workspace", load: navigationEntry('symbols') },
  calls: { describe: 'callers (or --out callees) of the function at TARGET', load: navigationEntry('calls') },
  diag: { describe: 'diagnostics for files, --staged changes or --all the workspace', load: ownEntry('diag') },
  git: { describe: 'git under a safety policy (--allow-write, --allow-destructive)', load: ownEntry('git') },
  servers: { describe: 'known language servers: found or not, version, running roots', load: ownEntry('servers') },
  daemon: { describe: 'status | stop | restart | logs of the background daemon', load: ownEntry('daemon') },
};

/** Commands that take git's own words: their unknown flags are not errors. */
export const PASSTHROUGH = new Set(['git']);
