/**
 * The published projects tests ask questions of (scripts/install-servers.sh's
 * published_sources), each as its registry ships it: immer's and
 * @tanstack/query-core's TypeScript from npm, with the tsconfig their sources
 * need alone; gorilla/mux's and golang.org/x/sync's Go from the module proxy;
 * attrs's Python with its stubs from PyPI; anyhow's Rust from crates.io;
 * cobra's Go from the Go module cache (the benchmarks' project, bench/projects.ts). Each
 * copied to `dir` and committed (the differential harness lists files with
 * git, and `lspq index` records the commit).
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, REPO } from './lspq';

const PUBLISHED = join(REPO, '.tools', 'published');
export const IMMER = join(PUBLISHED, 'immer-11.2.10');
export const MUX = join(PUBLISHED, 'mux-v1.8.1');
export const QUERY_CORE = join(PUBLISHED, 'query-core-5.108.4');
export const X_SYNC = join(PUBLISHED, 'sync-v0.10.0');
export const ATTRS = join(PUBLISHED, 'attrs-25.3.0');
export const ANYHOW = join(PUBLISHED, 'anyhow-1.0.98');

function committed(dir: string): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'as published');
  return dir;
}

function installed(folder: string): void {
  if (!existsSync(folder)) throw new Error(`${folder} is missing: run scripts/install-servers.sh`);
}

/** immer's sources at `dir`: src/ as published, a strict tsconfig, and the one global its build defines. */
export function immerAt(dir: string): string {
  installed(IMMER);
  cpSync(join(IMMER, 'src'), join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2020", "lib": ["es2020"], "module": "esnext", "moduleResolution": "bundler", "skipLibCheck": true }, "include": ["src"] }\n',
  );
  // Its build defines process.env.NODE_ENV; the sources alone need it declared.
  writeFileSync(join(dir, 'src', 'types', 'node.d.ts'), 'declare const process: { env: { NODE_ENV?: string } }\n');
  writeFileSync(join(dir, 'package.json'), '{ "name": "immer-sources", "private": true }\n');
  return committed(dir);
}

/** gorilla/mux's module at `dir`, as the module proxy serves it (no dependencies). */
export function muxAt(dir: string): string {
  installed(MUX);
  cpSync(MUX, dir, { recursive: true });
  return committed(dir);
}

/** golang.org/x/sync's module at `dir`, as the module proxy serves it. */
export function xSyncAt(dir: string): string {
  installed(X_SYNC);
  cpSync(X_SYNC, dir, { recursive: true });
  return committed(dir);
}

/** attrs's sdist at `dir`: src/attr and src/attrs with their .pyi stubs, and its pyproject.toml. */
export function attrsAt(dir: string): string {
  installed(ATTRS);
  cpSync(ATTRS, dir, { recursive: true });
  return committed(dir);
}

/** anyhow's crate at `dir`, as crates.io ships it (no dependencies to build its library). */
export function anyhowAt(dir: string): string {
  installed(ANYHOW);
  cpSync(ANYHOW, dir, { recursive: true });
  return committed(dir);
}

/** @tanstack/query-core's sources at `dir` (src/ as npm ships it, without its tests), with a strict tsconfig. */
export function queryCoreAt(dir: string): string {
  installed(QUERY_CORE);
  cpSync(join(QUERY_CORE, 'src'), join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "lib": ["es2022", "dom"], "module": "esnext", "moduleResolution": "bundler", "skipLibCheck": true }, "include": ["src"] }\n',
  );
  // Its build defines process.env.NODE_ENV; the sources alone need it declared.
  writeFileSync(join(dir, 'src', 'node.d.ts'), 'declare const process: { env: { NODE_ENV?: string } }\n');
  writeFileSync(join(dir, 'package.json'), '{ "name": "@tanstack/query-core", "private": true, "type": "module" }\n');
  return committed(dir);
}

export const COBRA_VERSION = 'v1.8.1';

/** Every file and folder under `dir` made writable by its owner (the module cache's are read-only). */
function writable(dir: string): void {
  chmodSync(dir, statSync(dir).mode | 0o700);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) writable(p);
    else chmodSync(p, statSync(p).mode | 0o200);
  }
}

/** spf13/cobra's module at `dir`, as the module proxy serves it (go mod download: its cache first), its tests included. */
export function cobraAt(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const r = Bun.spawnSync(['go', 'mod', 'download', '-json', `github.com/spf13/cobra@${COBRA_VERSION}`], {
    cwd: dir,
    env: { ...process.env, GOFLAGS: '-mod=mod' },
    stdin: 'ignore',
  });
  const found = r.exitCode === 0 ? (JSON.parse(r.stdout.toString()) as { Dir?: string }).Dir : undefined;
  if (!found) throw new Error(`go mod download github.com/spf13/cobra@${COBRA_VERSION}: ${r.stderr.toString()}`);
  cpSync(found, dir, { recursive: true });
  writable(dir);
  return committed(dir);
}
