/**
 * The published projects the index is compared on against its servers
 * (scripts/install-servers.sh's index_sources): immer's TypeScript as npm
 * ships it, with the tsconfig its sources need alone, and gorilla/mux's Go
 * from the module proxy; each copied to `dir` and committed (the
 * differential harness lists files with git, and `lspq index` records the
 * commit).
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, REPO } from './lspq';

export const IMMER = join(REPO, '.tools', 'index-sources', 'immer-11.2.10');
export const MUX = join(REPO, '.tools', 'index-sources', 'mux-v1.8.1');

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
