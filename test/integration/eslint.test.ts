/**
 * ESLint beside TypeScript's server: a flat-config project with the
 * project's own eslint (9, linked in from .tools/node_modules as an npm
 * install would put it). diag FILE and diag --all carry ESLint's
 * diagnostics with the server's, the same as `eslint` itself reports them,
 * cold and asked again, after an edit and after reverting it. Where the
 * project has ESLint's configuration but no eslint package, ESLint is left
 * out with one line, and TypeScript's answer stands. A legacy .eslintrc
 * project the same, with --staged, --since and ESLint's own fixes.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, Lspq, REPO, scratchDir } from '../helpers/lspq';

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

test('no eslint package in the project: ESLint left out with one line; TypeScript answers, and the answer is not whole (exit 3)', async () => {
  const r = await lspq.run(['diag', 'a.js', '--json'], { cwd: missing });
  const answer = JSON.parse(r.stdout) as { servers: { server: string }[]; withheld: unknown[] };
  expect(answer.servers.map((s) => s.server)).not.toContain('vscode-eslint-language-server');
  expect(answer.withheld).toEqual([
    {
      server: 'vscode-eslint-language-server',
      missing: 'the checks eslint.config.js asks for',
      fix: `no eslint package is installed for ${missing} (npm install -D eslint)`,
    },
  ]);
  expect(r.stderr).toContain(
    `lspq: warning: left out vscode-eslint-language-server: no eslint package is installed for ${missing} (npm install -D eslint)`,
  );
  expect(r.exit).toBe(3);
  // Asked of the servers the user chose: their answer is whole.
  const chosen = await lspq.run(['diag', 'a.js', '--server', 'typescript-language-server'], { cwd: missing });
  expect(chosen.exit).toBeLessThan(2);
});

describe('a legacy .eslintrc project (ESLint 9 told to read it: useFlatConfig false where no flat config is)', () => {
  const legacy = scratchDir('eslintrc');
  afterAll(() => rmSync(legacy, { recursive: true, force: true }));
  writeFileSync(join(legacy, 'package.json'), '{"name": "legacy", "private": true}\n');
  writeFileSync(
    join(legacy, '.eslintrc.json'),
    '{ "root": true, "env": { "es2022": true }, "parserOptions": { "ecmaVersion": 2022, "sourceType": "module" }, "rules": { "no-unused-vars": "error", "no-undef": "error", "prefer-const": "error" } }\n',
  );
  const LEGACY_A = 'let unused = 1;\nexport const x = y + 1;\n';
  writeFileSync(join(legacy, 'a.js'), LEGACY_A);
  symlinkSync(join(REPO, '.tools', 'node_modules'), join(legacy, 'node_modules'));
  git(legacy, 'init', '-q');
  git(legacy, 'add', '-A');
  git(legacy, 'commit', '-qm', 'legacy');
  const LEGACY = [
    "a.js:1:5: error: 'unused' is assigned a value but never used. [eslint no-unused-vars]",
    "a.js:1:5: error: 'unused' is never reassigned. Use 'const' instead. [eslint prefer-const]",
    "a.js:2:18: error: 'y' is not defined. [eslint no-undef]",
  ];

  test('diag FILE: what eslint itself reports (it failed every file with "Could not find config file", and lspq said clean)', async () => {
    const r = await lspq.run(['diag', 'a.js'], { cwd: legacy });
    expect([eslintLines(r.stdout), r.exit]).toEqual([LEGACY, 1]);
    const own = Bun.spawnSync([join(legacy, 'node_modules', '.bin', 'eslint'), '--format', 'json', 'a.js'], {
      cwd: legacy,
      env: { ...process.env, ESLINT_USE_FLAT_CONFIG: 'false' },
    });
    const reported = (
      JSON.parse(own.stdout.toString()) as { messages: { line: number; column: number; ruleId: string }[] }[]
    )[0]!.messages;
    expect(reported.map((m) => `a.js:${m.line}:${m.column}: ${m.ruleId}`)).toEqual(
      LEGACY.map((l) => l.replace(/: error: .*\[eslint (.*)\]$/, ': $1')),
    );
  });

  test("diag --staged: ESLint lints the staged text, not the work tree's", async () => {
    writeFileSync(join(legacy, 'a.js'), `${LEGACY_A}export const z = q;\n`);
    git(legacy, 'add', 'a.js');
    writeFileSync(join(legacy, 'a.js'), 'export const ok = 1;\n');
    const r = await lspq.run(['diag', '--staged'], { cwd: legacy });
    expect([eslintLines(r.stdout), r.exit]).toEqual([
      [...LEGACY, "a.js:3:18: error: 'q' is not defined. [eslint no-undef]"],
      1,
    ]);
    git(legacy, 'reset', '-q', 'a.js');
    writeFileSync(join(legacy, 'a.js'), LEGACY_A);
  });

  test('diag --since HEAD: only what the change brought', async () => {
    writeFileSync(join(legacy, 'a.js'), `${LEGACY_A}export const z = q;\n`);
    const r = await lspq.run(['diag', 'a.js', '--since', 'HEAD'], { cwd: legacy });
    expect([eslintLines(r.stdout), r.exit]).toEqual([["a.js:3:18: error: 'q' is not defined. [eslint no-undef]"], 1]);
    writeFileSync(join(legacy, 'a.js'), LEGACY_A);
  });

  test("actions: ESLint's fix applied, and diag after it has the problem gone", async () => {
    const listed = await lspq.json<{ actions: { index: number; title: string; server: string }[] }>(
      ['actions', 'a.js:1', '--json'],
      { cwd: legacy },
    );
    const fix = listed.actions.find((a) => a.title === 'Fix this prefer-const problem');
    expect(fix?.server).toBe('vscode-eslint-language-server');
    const r = await lspq.run(['actions', 'a.js:1', '--apply', String(fix!.index)], { cwd: legacy });
    expect([r.exit, r.stderr]).toEqual([0, `lspq: applied ${fix!.index}: Fix this prefer-const problem\n`]);
    expect(readFileSync(join(legacy, 'a.js'), 'utf8')).toBe('const unused = 1;\nexport const x = y + 1;\n');
    const after = await lspq.run(['diag', 'a.js'], { cwd: legacy });
    expect(eslintLines(after.stdout)).toEqual([
      "a.js:1:7: error: 'unused' is assigned a value but never used. [eslint no-unused-vars]",
      "a.js:2:18: error: 'y' is not defined. [eslint no-undef]",
    ]);
  });
});

test("a config ESLint cannot load: exit 3 naming its error (it answered as if the file were clean); mended, ESLint's answer", async () => {
  const broken = scratchDir('eslint-broken');
  try {
    writeFileSync(join(broken, 'package.json'), '{"name": "p", "private": true, "type": "module"}\n');
    writeFileSync(join(broken, 'eslint.config.js'), 'export default [{ rules: { "no-undef": "error" } ];\n');
    writeFileSync(join(broken, 'a.js'), 'export const x = y;\n');
    symlinkSync(join(REPO, '.tools', 'node_modules'), join(broken, 'node_modules'));
    for (let i = 0; i < 2; i++) {
      const r = await lspq.run(['diag', 'a.js'], { cwd: broken });
      // (TypeScript 7 on PATH may add a line of its own: the svelte and vue in the tools' node_modules.)
      expect([r.stdout, r.exit, r.stderr.split('\n').filter((l) => l.includes('eslint'))]).toEqual([
        '',
        3,
        [
          `lspq: vscode-eslint-language-server failed on ${broken}/a.js: SyntaxError: Unexpected token ']'; its diagnostics are not known (see 'lspq daemon logs')`,
        ],
      ]);
    }
    writeFileSync(join(broken, 'eslint.config.js'), 'export default [{ rules: { "no-undef": "error" } }];\n');
    const mended = await lspq.run(['diag', 'a.js'], { cwd: broken });
    expect([eslintLines(mended.stdout), mended.exit]).toEqual([
      ["a.js:1:18: error: 'y' is not defined. [eslint no-undef]"],
      1,
    ]);
  } finally {
    rmSync(broken, { recursive: true, force: true });
  }
});
