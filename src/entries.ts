/**
 * The binary's entry points beyond main.ts, loaded by name at run time
 * (scripts/build.ts compiles each into the binary): the engine, and the
 * subcommands whose code the navigation questions should not pay to start
 * (with git's policy and diag in it, the command's bundle cost every
 * question about 0.7 ms).
 *
 * The path is computed at run time so the bundler cannot follow it and fold
 * the entry back into the one that asked for it.
 */

/** True inside the compiled binary, false when the sources run with bun. */
export function runsCompiled(): boolean {
  return Bun.main.startsWith('/$bunfs/');
}

/** Where the entry points sit: the compiled binary's own file system, or the sources. */
function entryRoot(): string {
  return runsCompiled() ? '/$bunfs/root' : import.meta.dir;
}

/** `name` as scripts/build.ts names it, relative to src/ and without extension: `engine`, `cli/def`. */
export function loadEntry<T>(name: string): T {
  return require(`${entryRoot()}/${name}.js`) as T;
}
