/**
 * Compiles dist/lspq, one binary that is both the command and the daemon.
 *
 * - The build id is a hash of the sources and the lock file: a command and
 *   a daemon from different builds never talk.
 * - CommonJS bytecode: the same code as an ES-module bundle started in about
 *   10 ms here, as CommonJS bytecode in about 5 ms, as fast as a compiled
 *   hello-world. consola reads import.meta.env, which CommonJS lacks; it
 *   falls back to process.env.
 * - Several entry points (src/bundles.ts): a command starts without the
 *   commands, citty, consola or the LSP library unless it needs them.
 * - citty imports all of consola for two log calls and its usage colours;
 *   that cost about 4 ms on every command, so citty gets a small stand-in
 *   (scripts/consola-for-citty.ts). Everything else keeps the real consola.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLES } from '../src/bundles';

const root = join(import.meta.dir, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The build id: a hash of the sources (the agents' page too), this script and the lock file. */
export function buildId(): string {
  const hash = createHash('sha256');
  for (const f of [
    ...files(join(root, 'src')),
    join(root, 'scripts', 'consola-for-citty.ts'),
    join(root, 'scripts', 'build.ts'),
    // Inlined as lspq help agents.
    join(root, 'docs', 'agents.md'),
  ].sort()) {
    hash.update(f.slice(root.length)).update(readFileSync(f));
  }
  for (const lock of ['package-lock.json', 'bun.lock'])
    if (existsSync(join(root, lock))) hash.update(readFileSync(join(root, lock)));
  return hash.digest('hex').slice(0, 12);
}

/** What the binary bundles, and how: shared with the test that keeps the engine out of the command's bundle. */
export function bundleOptions(id: string) {
  return {
    // The command's entry, and those it loads by name (src/bundles.ts).
    entrypoints: Object.values(BUNDLES).map((name) => join(root, 'src', `${name}.ts`)),
    // Outputs named as src/bundles.ts loads them: engine-bundle.js, commands/usage.js.
    root: join(root, 'src'),
    format: 'cjs' as const,
    minify: true,
    define: { 'import.meta.env': 'undefined', LSPQ_BUILD_ID: JSON.stringify(id) },
    plugins: [
      {
        name: 'citty-without-consola',
        setup(build: import('bun').PluginBuilder) {
          build.onResolve({ filter: /^consola(\/utils)?$/ }, (args) =>
            args.importer.includes('/node_modules/citty/')
              ? { path: join(root, 'scripts', 'consola-for-citty.ts') }
              : undefined,
          );
        },
      },
    ],
  };
}

/**
 * How a binary is compiled: lspq, and the benchmark's hello-world and
 * floor client (bench/), so they start the way lspq does.
 */
export function compileOptions(outfile: string) {
  return {
    compile: {
      outfile,
      // A project's .env or bunfig.toml must not change lspq (its environment is
      // sent to the servers); reading them also cost a directory walk per command.
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
      // A command runs for milliseconds: JIT threads compiling its run-once code
      // only compete with it (about 0.5 ms here). The engine (daemon,
      // --no-daemon) sets the normal policy back as it starts.
      jitPolicy: 50,
    },
    format: 'cjs' as const,
    minify: true,
    bytecode: true,
  };
}

if (import.meta.main) {
  const id = buildId();
  const result = await Bun.build({ ...bundleOptions(id), ...compileOptions(join(root, 'dist', 'lspq')) });
  if (!result.success) {
    for (const log of result.logs) console.error(String(log));
    process.exit(1);
  }
  console.log(`built dist/lspq (build ${id})`);
}
