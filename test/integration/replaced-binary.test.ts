/**
 * The binary replaced on disk under a running daemon of the same build (a
 * reinstall of the same version, a rebuild of the same sources): the
 * daemon goes on running itself for its helpers (an index's table), from
 * what it runs, not from the name now gone (it was an internal error).
 */
import { afterAll, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capture, git, Lspq, REPO, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('replaced');
const bin = join(dir, 'bin');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

test('an index made after the binary was replaced under its daemon: answered', async () => {
  const project = join(dir, 'p');
  mkdirSync(project);
  mkdirSync(bin);
  writeFileSync(join(project, 'a.ts'), 'export const x = 1;\nexport const y = x + 1;\n');
  writeFileSync(join(project, 'tsconfig.json'), '{}\n');
  writeFileSync(join(project, 'package.json'), '{"name":"p"}\n');
  git(project, 'init', '-q', '-b', 'main');
  const lspqBin = join(bin, 'lspq');
  copyFileSync(join(REPO, 'dist', 'lspq'), lspqBin);
  const run = (args: string[]) => capture([lspqBin, ...args], project, lspq.env());
  expect((await run(['def', 'a.ts:2:x'])).exit).toBe(0);
  // Replaced: a new file at the same name (the running daemon's is deleted), the same build.
  rmSync(lspqBin);
  copyFileSync(join(REPO, 'dist', 'lspq'), lspqBin);
  const indexed = await run(['index', '--timeout', '120']);
  expect([indexed.exit, indexed.stderr.includes('internal error')]).toEqual([0, false]);
  const refs = await run(['refs', 'a.ts:1:x', '--index-only']);
  expect([refs.stdout, refs.exit]).toEqual(['a.ts:2:18: export const y = x + 1;\n', 0]);
});
