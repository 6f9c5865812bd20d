/**
 * A file no installed server checks hides nothing else: in a Go and
 * Markdown repository, with `git add` staging and a PATH built without
 * marksman, every diag form (--staged, plain, --since, --patch) and the
 * after-edit hook print the Go error, name README.md as not checked on one
 * line (and in JSON), and exit 1. Without gopls, the Go file itself is not
 * checked: exit 3, and what another server found is printed all the same.
 * Before, each of them was exit 3 with only "marksman is not installed".
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exactPath, git, Lspq, lspqArgv, scratchDir } from '../helpers/lspq';
import { checkAnswer } from '../helpers/schema';

const lspq = new Lspq();
const dir = scratchDir('unchecked');
// gopls and what it runs; no marksman, whatever the machine has.
const withGo = exactPath(['git', 'go', 'gopls']);
// Not even gopls.
const gitOnly = exactPath(['git']);
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const d of [dir, withGo, gitOnly]) rmSync(d, { recursive: true, force: true });
});

const ROUTE =
  'package main\n\nfunc route(path string) int {\n\treturn len(path)\n}\n\nfunc main() { _ = route("/") }\n';
const BROKEN = ROUTE.replace('return len(path)', 'return path');
const ERROR =
  'route.go:4:9: error: cannot use path (variable of type string) as int value in return statement [compiler IncompatibleAssign]\n';
const MARKSMAN =
  'marksman is not installed; install it: install marksman: its release binary, or snap install marksman';
const GOPLS = 'gopls is not installed; install it: go install golang.org/x/tools/gopls@latest';
const README_NOTE = `lspq: not checked: README.md (${MARKSMAN})\n`;

const ask = (args: string[], PATH: string, stdin?: string) =>
  stdin === undefined ? lspq.run(args, { cwd: dir, env: { PATH } }) : withStdin(args, PATH, stdin);

async function withStdin(args: string[], PATH: string, input: string) {
  const proc = Bun.spawn([...lspqArgv(), ...args], {
    cwd: dir,
    env: lspq.env({ PATH }),
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  proc.stdin.write(input);
  await proc.stdin.end();
  const [stdout, stderr, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, exit };
}

beforeAll(() => {
  writeFileSync(join(dir, 'go.mod'), 'module example.com/routes\n\ngo 1.21\n');
  writeFileSync(join(dir, 'route.go'), ROUTE);
  writeFileSync(join(dir, 'README.md'), '# routes\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
});

describe('diag: the Go error, and README.md named as not checked', () => {
  test('--patch, before the edit is written: the error it introduces, README.md a note, exit 1', async () => {
    const patch = [
      'diff --git a/README.md b/README.md',
      '--- a/README.md',
      '+++ b/README.md',
      '@@ -1 +1,2 @@',
      ' # routes',
      '+See route.go.',
      'diff --git a/route.go b/route.go',
      '--- a/route.go',
      '+++ b/route.go',
      '@@ -3,3 +3,3 @@',
      ' func route(path string) int {',
      '-\treturn len(path)',
      '+\treturn path',
      ' }',
      '',
    ].join('\n');
    expect(await ask(['diag', '--patch', '-'], withGo, patch)).toEqual({
      stdout: ERROR,
      stderr: `lspq: 1 error new with the patch (2 files touched) in 2 files\n${README_NOTE}`,
      exit: 1,
    });
  });

  test('staged with git add: --staged, plain diag and --since HEAD each print it, exit 1', async () => {
    writeFileSync(join(dir, 'route.go'), BROKEN);
    writeFileSync(join(dir, 'README.md'), '# routes\n\nSee route.go.\n');
    git(dir, 'add', 'route.go', 'README.md');
    expect(await ask(['diag', '--staged'], withGo)).toEqual({
      stdout: ERROR,
      stderr: `lspq: 1 error in 1 file\n${README_NOTE}`,
      exit: 1,
    });
    expect(await ask(['diag'], withGo)).toEqual({
      stdout: ERROR,
      stderr: `lspq: 1 error in 1 file\n${README_NOTE}`,
      exit: 1,
    });
    expect(await ask(['diag', '--staged', '--since', 'HEAD'], withGo)).toEqual({
      stdout: ERROR,
      stderr: `lspq: 1 error new since HEAD in 1 file\n${README_NOTE}`,
      exit: 1,
    });
  });

  test('--json names it in `unchecked`, not needed', async () => {
    const doc = await lspq.json<Record<string, unknown>>(['diag', '--staged'], { cwd: dir, env: { PATH: withGo } });
    checkAnswer('diag', doc);
    expect([doc.files, doc.summary, doc.unchecked]).toEqual([
      ['route.go'],
      { error: 1, warning: 0, info: 0, hint: 0 },
      [{ path: 'README.md', reason: MARKSMAN, needed: false }],
    ]);
  });

  test('only README.md staged: nothing checked that matters, exit 0 with the note', async () => {
    git(dir, 'reset', '-q', '--', 'route.go');
    expect(await ask(['diag', '--staged'], withGo)).toEqual({
      stdout: '',
      stderr: `lspq: no problems in 0 files\n${README_NOTE}`,
      exit: 0,
    });
    git(dir, 'add', 'route.go');
  });

  test('without gopls: route.go is not checked, exit 3', async () => {
    expect(await ask(['diag', '--staged'], gitOnly)).toEqual({
      stdout: '',
      stderr: `lspq: no problems in 0 files\n${README_NOTE}lspq: not checked: route.go (${GOPLS})\n`,
      exit: 3,
    });
  });

  test('a shell script no installed server checks: exit 3, and the Go error printed all the same', async () => {
    writeFileSync(join(dir, 'deploy.sh'), '#!/bin/sh\necho deploy\n');
    git(dir, 'add', 'deploy.sh');
    expect(await ask(['diag', '--staged'], withGo)).toEqual({
      stdout: ERROR,
      stderr: `lspq: 1 error in 1 file\n${README_NOTE}lspq: not checked: deploy.sh (bash-language-server is not installed; install it: npm install -g bash-language-server)\n`,
      exit: 3,
    });
    git(dir, 'rm', '-q', '--cached', 'deploy.sh');
    rmSync(join(dir, 'deploy.sh'));
  });
});

describe('the after-edit hook (Claude Code) on the same repository', () => {
  const post = (file: string) =>
    JSON.stringify({
      session_id: `s-${file}`,
      hook_event_name: 'PostToolUse',
      cwd: dir,
      tool_name: 'Write',
      tool_input: { file_path: join(dir, file), content: 'whatever' },
      tool_response: { filePath: join(dir, file), success: true },
    });

  test('a Markdown edit: silent for the model, exit 0, the note for the person', async () => {
    writeFileSync(join(dir, 'README.md'), '# routes\n\nSee route.go and main.\n');
    expect(await ask(['hook', 'run', '--for', 'claude'], withGo, post('README.md'))).toEqual({
      stdout: '',
      stderr: `lspq: warning: not checked: README.md (${MARKSMAN})\n`,
      exit: 0,
    });
  });

  test("the Go edit: exit 2 with its error (compared with git's index)", async () => {
    git(dir, 'reset', '-q', '--', 'route.go');
    expect(await ask(['hook', 'run', '--for', 'claude'], withGo, post('route.go'))).toEqual({
      stdout: '',
      stderr: `lspq: this edit of route.go introduced 1 error (compared with git's index):\n${ERROR}`,
      exit: 2,
    });
  });

  test('without gopls: not wholly checked, for the person (exit 1)', async () => {
    expect(await ask(['hook', 'run', '--for', 'claude'], gitOnly, post('route.go'))).toEqual({
      stdout: '',
      stderr: `lspq: the edit was not wholly checked: not checked: route.go (${GOPLS})\n`,
      exit: 1,
    });
  });
});
