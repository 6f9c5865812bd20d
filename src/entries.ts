/**
 * The binary's entry points beyond main.ts, loaded by name at run time
 * (scripts/build.ts compiles each into the binary). A command loads only the
 * code it runs: the whole command line in one bundle cost every question
 * about 0.7 ms to start, as much as main.ts alone costs over a hello-world.
 *
 * The path is computed at run time so the bundler cannot follow it and fold
 * the entry back into the one that asked for it.
 */

/** Where the entry points sit: the compiled binary's own file system, or the sources when run with bun. */
function entryRoot(): string {
  return Bun.main.startsWith('/$bunfs/') ? '/$bunfs/root' : import.meta.dir;
}

/** `name` as scripts/build.ts names it, relative to src/ and without extension: `engine`, `cli/def`. */
export function loadEntry<T>(name: string): T {
  return require(`${entryRoot()}/${name}.js`) as T;
}
