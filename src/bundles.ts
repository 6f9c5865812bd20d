/**
 * The binary's bundles. main.ts is the command's own (every question pays
 * to start it, so it holds the routing, the commands' declarations and the
 * socket client, nothing more); the others are entry points the compiled
 * binary carries and loads by name when a command needs them:
 *
 * - `engine`: the command path (every command's run, renderers, shapes, git), the
 *   handlers (each loaded when its question is first asked) and the daemon
 *   (loaded when it starts). The daemon runs every forwarded command line
 *   in it; the command's process loads it for git, daemon control, trust,
 *   schema and --no-daemon.
 * - `help`: citty's --help renderer, which only --help needs.
 * - `terminal`: consola, for warnings and progress on stderr: only a command
 *   with something to say loads it.
 * - `box`: `lspq __box`, the Landlock box a program is started in where
 *   bubblewrap is missing (src/box/box-entry.ts).
 *
 * The path is computed at run time so the bundler cannot follow it and fold
 * a bundle back into the one that asked for it. Each caller names the type
 * of what it loads (the entry's own exported type), so this file imports
 * none of them.
 */
export const BUNDLES = {
  main: 'main',
  engine: 'engine-bundle',
  help: 'commands/help',
  terminal: 'cli/terminal-messages',
  box: 'box/box-entry',
} as const;

export type Bundle = keyof typeof BUNDLES;

/** True inside the compiled binary, false when the sources run with bun. */
export function runsCompiled(): boolean {
  return Bun.main.startsWith('/$bunfs/');
}

/**
 * The command that runs this same lspq again (the daemon, a table's
 * maker): the binary, or bun with the sources. A binary replaced on disk
 * since it started (an upgrade, a rebuild) is run from what this process
 * runs, /proc/self/exe, not the name now gone.
 */
export function selfArgv(): [string, ...string[]] {
  const binary =
    process.platform === 'linux' && process.execPath.endsWith(' (deleted)') ? '/proc/self/exe' : process.execPath;
  return runsCompiled() ? [binary] : [binary, Bun.main];
}

/** Where the entry points sit: the compiled binary's own file system, or the sources. */
function entryRoot(): string {
  return runsCompiled() ? '/$bunfs/root' : import.meta.dir;
}

/** Loads a bundle, typed as its entry's exports (`T`, named by the caller). */
export function loadBundle<T>(bundle: Exclude<Bundle, 'main'>): T {
  return require(`${entryRoot()}/${BUNDLES[bundle]}.js`) as T;
}
