/**
 * ESLint beside TypeScript's server: a flat-config project with the
 * project's own eslint (9, linked in from .tools/node_modules as an npm
 * install would put it). diag FILE and diag --all carry ESLint's
 * diagnostics with the server's, the same as `eslint` itself reports them,
 * cold and asked again, after an edit and after reverting it. Where the
 * project has ESLint's configuration but no eslint package, ESLint is left
 * out with one line, and TypeScript's answer stands.
 */
import { afterAll, expect, test } from 'bun:test';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, REPO, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const CONFIG = 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error", "no-undef": "error" } }];\n';
const A = 'const unused = 1;\nexport const x = y + 1;\n';

function project(withEslint: boolean): string {
  const dir = scratchDir(withEslint ? 'eslint' : 'eslint-missing');
  writeFileSync(join(dir, 'package.json'), '{"name": "p", "private": true, "type": "module"}\n');
  writeFileSync(join(dir, 'eslint.config.js'), CONFIG);
  writeFileSync(join(dir, 'a.js'), A);
  writeFileSync(join(dir, 'b.js'), 'export const b = 2;\n');
  if (withEslint) symlinkSync(join(REPO, '.tools', 'node_modules'), join(dir, 'node_modules'));
  return dir;
}
const dir = project(true);
const missing = project(false);
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const d of [dir, missing]) rmSync(d, { recursive: true, force: true });
});

/** ESLint's own lines of a diag answer. */
const eslintLines = (stdout: string) => stdout.split('\n').filter((l) => l.includes('[eslint '));
const ESLINT = [
  "a.js:1:7: error: 'unused' is assigned a value but never used. [eslint no-unused-vars]",
  "a.js:2:18: error: 'y' is not defined. [eslint no-undef]",
];

test('diag FILE: ESLint beside TypeScript, as eslint reports it; asked again, the same', async () => {
  for (let i = 0; i < 2; i++) {
    const r = await lspq.run(['diag', 'a.js'], { cwd: dir });
    expect([eslintLines(r.stdout), r.exit]).toEqual([ESLINT, 1]);
  }
  const json = await lspq.json<{ servers: { server: string }[] }>(['diag', 'a.js'], { cwd: dir });
  expect(json.servers.map((s) => s.server)).toContain('vscode-eslint-language-server');
});

test('diag --all: the same ESLint diagnostics as diag FILE, none for the clean file', async () => {
  const r = await lspq.run(['diag', '--all'], { cwd: dir });
  expect(eslintLines(r.stdout)).toEqual(ESLINT);
});

test('after an edit, and after reverting it', async () => {
  writeFileSync(join(dir, 'a.js'), 'export const unused = 1;\nexport const x = unused + 1;\n');
  expect(eslintLines((await lspq.run(['diag', 'a.js'], { cwd: dir })).stdout)).toEqual([]);
  writeFileSync(join(dir, 'a.js'), A);
  expect(eslintLines((await lspq.run(['diag', 'a.js'], { cwd: dir })).stdout)).toEqual(ESLINT);
});

test('no eslint package in the project: ESLint left out with one line; TypeScript answers', async () => {
  const r = await lspq.run(['diag', 'a.js', '--json'], { cwd: missing });
  const answer = JSON.parse(r.stdout) as { servers: { server: string }[] };
  expect(answer.servers.map((s) => s.server)).not.toContain('vscode-eslint-language-server');
  expect(r.stderr).toContain(
    `lspq: warning: left out vscode-eslint-language-server: no eslint package is installed for ${missing} (npm install -D eslint)`,
  );
  expect(r.exit).toBeLessThan(2);
});
