/**
 * The binary's bundles. main.ts is the command's own (every question pays
 * to start it, so it holds the routing, the command table and the socket
 * client, nothing more); the others are entry points the compiled binary
 * carries and loads by name when a command needs them:
 *
 * - `commands`: the engine's command half (parse, answer through a host,
 *   render, exit code) with the renderers and git. The daemon runs it for
 *   every forwarded command line; the command's process loads it for
 *   git, daemon control, --help and --no-daemon.
 * - `engine`: the language-server half (LSP client, server pool, handlers)
 *   and the daemon itself, with `commands` inside.
 * - `usage`: citty's --help renderer, which only --help needs.
 * - `person`: consola, for warnings and progress on stderr: only a command
 *   with something to say loads it.
 *
 * The path is computed at run time so the bundler cannot follow it and fold
 * a bundle back into the one that asked for it.
 */
export const BUNDLES = {
  main: 'main',
  commands: 'commands/index',
  engine: 'engine/index',
  usage: 'commands/usage',
  person: 'cli/person',
} as const;

export type Bundle = keyof typeof BUNDLES;

/** True inside the compiled binary, false when the sources run with bun. */
export function runsCompiled(): boolean {
  return Bun.main.startsWith('/$bunfs/');
}

/** Where the entry points sit: the compiled binary's own file system, or the sources. */
function entryRoot(): string {
  return runsCompiled() ? '/$bunfs/root' : import.meta.dir;
}

export function loadBundle(bundle: 'commands'): typeof import('./commands/index');
export function loadBundle(bundle: 'engine'): typeof import('./engine/index');
export function loadBundle(bundle: 'usage'): typeof import('./commands/usage');
export function loadBundle(bundle: 'person'): typeof import('./cli/person');
export function loadBundle(bundle: Exclude<Bundle, 'main'>): unknown {
  return require(`${entryRoot()}/${BUNDLES[bundle]}.js`);
}
