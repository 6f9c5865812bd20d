/**
 * Compiles dist/lspq. The build id is a hash of the sources and the lock
 * file: a command and a daemon from different builds never talk.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const hash = createHash('sha256');
for (const f of files(join(root, 'src')).sort()) hash.update(f.slice(root.length)).update(readFileSync(f));
for (const lock of ['package-lock.json', 'bun.lock']) if (existsSync(join(root, lock))) hash.update(readFileSync(join(root, lock)));
const id = hash.digest('hex').slice(0, 12);

const proc = Bun.spawnSync(
  [
    process.execPath, 'build', '--compile', '--minify', '--bytecode', '--format=esm', '--sourcemap=none',
    `--define=LSPQ_BUILD_ID=${JSON.stringify(id)}`,
    join(root, 'src/main.ts'), '--outfile', join(root, 'dist/lspq'),
  ],
  { stdout: 'inherit', stderr: 'inherit' },
);
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);
console.log(`built dist/lspq (build ${id})`);
