/**
 * lspq apply on real servers (gopls on a small module and on cobra,
 * TypeScript 7 on a small project): a patch checked in memory as diag
 * --patch checks it, then written whole only if it introduces nothing at
 * --fail-on. A clean patch (a file changed, one created, one deleted) is
 * written exactly; one that breaks a caller is exit 1 with diag's lines
 * and every file byte for byte as it was; a chain is written only if every
 * step is clean, and names the step that is not; a patch that does not
 * apply is exit 2 naming the file and the hunk; --fail-on, --dry-run,
 * stdin, JSON against its schema; no patch writes into .git, nor a binary
 * change it cannot write with the rest; a file
 * another program changes during the check makes the write refused, nothing
 * of the patch written (a fake server that edits during its diagnostics).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fakeProject, git, Lspq, scratchDir } from '../helpers/lspq';
import { cobraAt } from '../helpers/published';

const lspq = new Lspq();
const base = scratchDir('apply');
const scratch: string[] = [base];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir` but .git, with its bytes: what a refused patch must leave exactly as it was. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

function project(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

/** A patch file outside the project (so it is no file of the tree). */
function patchFile(name: string, text: string): string {
  const path = join(base, `${name}.patch`);
  writeFileSync(path, text);
  return path;
}

/** lspq with `input` on its stdin. */
/** lspq with `input` on its stdin. */
const piped = (args: string[], cwd: string, input: string) => lspq.run(args, { cwd, stdin: input });

const GO = {
  'go.mod': 'module example.com/apply\n\ngo 1.22\n',
  'lib.go': 'package apply\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n',
  'caller.go': 'package apply\n\nvar Twice = Scale(2)\n',
  'unused.go': 'package apply\n\nvar Unused = 1\n',
};

/** Adds Triple to lib.go, creates nine.go calling it, deletes unused.go: clean. */
const GO_CLEAN = [
  '--- a/lib.go',
  '+++ b/lib.go',
  '@@ -3,3 +3,7 @@',
  ' func Scale(x int) int {',
  ' \treturn x * 2',
  ' }',
  '+',
  '+func Triple(x int) int {',
  '+\treturn x * 3',
  '+}',
  '--- /dev/null',
  '+++ b/nine.go',
  '@@ -0,0 +1,3 @@',
  '+package apply',
  '+',
  '+var Nine = Triple(3)',
  '--- a/unused.go',
  '+++ /dev/null',
  '@@ -1,3 +0,0 @@',
  '-package apply',
  '-',
  '-var Unused = 1',
  '',
].join('\n');
const GO_CLEAN_AFTER = {
  'go.mod': GO['go.mod'],
  'lib.go':
    'package apply\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n\nfunc Triple(x int) int {\n\treturn x * 3\n}\n',
  'caller.go': GO['caller.go'],
  'nine.go': 'package apply\n\nvar Nine = Triple(3)\n',
};

/** Gives Scale a second parameter: its caller breaks. */
const GO_BREAKING =
  '--- a/lib.go\n+++ b/lib.go\n@@ -1,5 +1,5 @@\n package apply\n \n-func Scale(x int) int {\n-\treturn x * 2\n+func Scale(x, by int) int {\n+\treturn x * by\n }\n';
const GO_BROKEN =
  'caller.go:3:20: error: not enough arguments in call to Scale have (number) want (int, int) [compiler WrongArgCount]';

/** On top of GO_CLEAN only (its context is the Triple GO_CLEAN adds): Triple made to return a string it does not. */
const GO_ON_TOP =
  '--- a/lib.go\n+++ b/lib.go\n@@ -7,3 +7,3 @@\n \n-func Triple(x int) int {\n+func Triple(x int) string {\n \treturn x * 3\n';

const text = (dir: string, files: Record<string, string>) =>
  Object.fromEntries(Object.keys(files).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

describe('gopls: a small module', () => {
  const dir = project('go', GO);
  const clean = tree(dir);
  const reset = () => {
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'clean', '-fdq');
  };

  test('a patch that breaks a caller: exit 1 with the broken caller as diag says it, nothing written', async () => {
    const r = await lspq.run(['apply', patchFile('go-breaking', GO_BREAKING)], { cwd: dir });
    expect(r).toEqual({
      exit: 1,
      stdout: `${GO_BROKEN}\n`,
      stderr: 'lspq: 1 error new with the patch (1 file touched) in 4 files; nothing written\n',
    });
    expect(tree(dir)).toEqual(clean);
  });

  test('a clean patch: written exactly (a file changed, one created, one deleted); the servers see it after', async () => {
    const r = await lspq.run(['apply', patchFile('go-clean', GO_CLEAN)], { cwd: dir });
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^lspq: nothing new with the patch \(3 files touched\) in \d+ files; applied \/.+go-clean\.patch: 3 files written\n$/,
    );
    expect(r.exit).toBe(0);
    expect(
      readdirSync(dir)
        .filter((f) => f !== '.git')
        .sort(),
    ).toEqual(Object.keys(GO_CLEAN_AFTER).sort());
    expect(text(dir, GO_CLEAN_AFTER)).toEqual(GO_CLEAN_AFTER);
    // The daemon's servers hold the written tree: the next patch is checked against it.
    const next = await lspq.run(['diag', '--patch', patchFile('go-on-top', GO_ON_TOP)], { cwd: dir });
    expect([lines(next.stdout), next.exit]).toEqual([
      [
        'lib.go:8:9: error: cannot use x * 3 (value of type int) as string value in return statement [compiler IncompatibleAssign]',
      ],
      1,
    ]);
    reset();
  });

  test('a chain: the second step breaks what the first added, so neither is written; the step is named', async () => {
    const first = patchFile('go-clean', GO_CLEAN);
    const second = patchFile('go-on-top', GO_ON_TOP);
    const third = patchFile('go-breaking', GO_BREAKING);
    const r = await lspq.run(['apply', first, second, third], { cwd: dir });
    expect(r.stdout).toBe(
      [
        `step 1 of 3 (${first}): introduces nothing`,
        `step 2 of 3 (${second}): introduces 1 error`,
        'lib.go:8:9: error: cannot use x * 3 (value of type int) as string value in return statement [compiler IncompatibleAssign]',
        `step 3 of 3 (${third}): not checked (step 2 introduces problems)`,
        '',
      ].join('\n'),
    );
    expect(r.stderr).toMatch(/^lspq: 1 error new with 3 patches \(3 files touched\) in \d+ files; nothing written\n$/);
    expect(r.exit).toBe(1);
    expect(tree(dir)).toEqual(clean);
    // The second step alone does not apply to the disk: it is read on top of the first.
    const alone = await lspq.run(['apply', second], { cwd: dir });
    expect([alone.exit, alone.stdout]).toEqual([2, '']);
    expect(alone.stderr).toStartWith('lspq: the patch does not apply: lib.go hunk 1 (@@ -7,3 +7,3 @@) expects');
    expect(tree(dir)).toEqual(clean);
  });

  test('a clean chain: written as the last step leaves it, in one edit', async () => {
    const fix = '--- a/caller.go\n+++ b/caller.go\n@@ -3 +3 @@\n-var Twice = Scale(2)\n+var Twice = Triple(2)\n';
    const r = await lspq.run(['apply', patchFile('go-clean', GO_CLEAN), patchFile('go-fix', fix)], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(r.stdout).toBe(
      `step 1 of 2 (${join(base, 'go-clean.patch')}): introduces nothing\nstep 2 of 2 (${join(base, 'go-fix.patch')}): introduces nothing\n`,
    );
    expect(text(dir, GO_CLEAN_AFTER)).toEqual({
      ...GO_CLEAN_AFTER,
      'caller.go': 'package apply\n\nvar Twice = Triple(2)\n',
    });
    reset();
  });

  test('--fail-on: a warning keeps the patch unwritten only when asked', async () => {
    const printf =
      '--- a/caller.go\n+++ b/caller.go\n@@ -1,3 +1,7 @@\n package apply\n \n+import "fmt"\n+\n var Twice = Scale(2)\n+\n+var Items = fmt.Sprintf("%d items", "three")\n';
    const warned =
      'caller.go:7:26: warning: fmt.Sprintf format %d has arg "three" of wrong type string [printf default]';
    const strict = await lspq.run(['apply', patchFile('go-printf', printf), '--fail-on', 'warning'], { cwd: dir });
    expect([strict.exit, strict.stdout]).toEqual([1, `${warned}\n`]);
    expect(strict.stderr).toEndWith('; nothing written\n');
    expect(tree(dir)).toEqual(clean);
    const lenient = await lspq.run(['apply', patchFile('go-printf', printf)], { cwd: dir });
    expect([lenient.exit, lenient.stdout]).toEqual([0, `${warned}\n`]);
    expect(readFileSync(join(dir, 'caller.go'), 'utf8')).toContain('fmt.Sprintf("%d items", "three")');
    reset();
  });

  test('--dry-run and stdin, as JSON (the schema checks it): the check, nothing written', async () => {
    const r = await piped(['apply', '-', '--dry-run', '--json'], dir, GO_CLEAN);
    const doc = JSON.parse(r.stdout) as { written: boolean; changed: string[]; patch: { files: string[] } };
    expect([r.exit, doc.written, doc.changed, doc.patch.files]).toEqual([
      0,
      false,
      ['lib.go', 'nine.go', 'unused.go'],
      ['lib.go', 'nine.go', 'unused.go'],
    ]);
    expect(tree(dir)).toEqual(clean);
    const written = await piped(['apply', '--json', '-'], dir, GO_CLEAN);
    expect((JSON.parse(written.stdout) as { written: boolean }).written).toBe(true);
    expect(text(dir, GO_CLEAN_AFTER)).toEqual(GO_CLEAN_AFTER);
    reset();
  });

  test('bad input: no patch, two from stdin, one that does not apply, one into .git, a binary change: exit 2, nothing written', async () => {
    expect(await lspq.run(['apply'], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr:
        "lspq: missing PATCH: lspq apply PATCH... (- reads one from stdin); 'lspq diag --patch PATCH' checks one without writing\n",
    });
    expect(await piped(['apply', '-', '-'], dir, GO_CLEAN)).toEqual({
      exit: 2,
      stdout: '',
      stderr: 'lspq: - reads a patch from stdin, which holds one: give the other patches as files\n',
    });
    const wrong = GO_BREAKING.replace('-\treturn x * 2', '-\treturn x * 3');
    expect(await lspq.run(['apply', patchFile('go-wrong', wrong)], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr:
        'lspq: the patch does not apply: lib.go hunk 1 (@@ -1,5 +1,5 @@) expects "\\treturn x * 3" at line 4, where the file has "\\treturn x * 2"\n',
    });
    const hook = '--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+echo ran\n';
    expect(await lspq.run(['apply', patchFile('go-hook', hook)], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr:
        'lspq: the patch would change .git/hooks/pre-commit, inside a .git folder, which lspq apply never writes (git runs its hooks); nothing was written\n',
    });
    const binary = `${GO_CLEAN}diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n`;
    expect(await lspq.run(['apply', patchFile('go-binary', binary)], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr:
        'lspq: the patch changes logo.png as a binary file, which lspq apply cannot write with the rest: apply that part with git apply, or leave it out\n',
    });
    expect(tree(dir)).toEqual(clean);
    expect(readdirSync(join(dir, '.git', 'hooks'))).not.toContain('pre-commit');
  });
});

describe('TypeScript 7', () => {
  const TS = {
    'tsconfig.json':
      '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
    'src/lib.ts': 'export function scale(x: number): number {\n  return x * 2;\n}\n',
    'src/caller.ts': "import { scale } from './lib';\n\nexport const twice = scale(2);\n",
  };
  const dir = project('ts', TS);
  const clean = tree(dir);

  test('a patch that breaks a caller: exit 1, nothing written; a clean one that creates a file: written exactly', async () => {
    const breaking =
      '--- a/src/lib.ts\n+++ b/src/lib.ts\n@@ -1,3 +1,3 @@\n-export function scale(x: number): number {\n-  return x * 2;\n+export function scale(x: number, by: number): number {\n+  return x * by;\n }\n';
    const r = await lspq.run(['apply', patchFile('ts-breaking', breaking), '--server', 'typescript'], { cwd: dir });
    expect(r).toEqual({
      exit: 1,
      stdout: 'src/caller.ts:3:22: error: Expected 2 arguments, but got 1. [ts 2554]\n',
      stderr: 'lspq: 1 error new with the patch (1 file touched) in 2 files; nothing written\n',
    });
    expect(tree(dir)).toEqual(clean);
    const fine =
      "--- a/src/caller.ts\n+++ b/src/caller.ts\n@@ -1,3 +1,4 @@\n import { scale } from './lib';\n \n export const twice = scale(2);\n+export const thrice: number = scale(3) + twice;\n--- /dev/null\n+++ b/src/four.ts\n@@ -0,0 +1,3 @@\n+import { scale } from './lib';\n+\n+export const four = scale(2);\n";
    const ok = await lspq.run(['apply', patchFile('ts-fine', fine), '--server', 'typescript'], { cwd: dir });
    expect([ok.exit, ok.stdout]).toEqual([0, '']);
    expect(ok.stderr).toEndWith(': 2 files written\n');
    expect(text(dir, { 'src/caller.ts': '', 'src/four.ts': '', 'src/lib.ts': '' })).toEqual({
      'src/caller.ts': `${TS['src/caller.ts']}export const thrice: number = scale(3) + twice;\n`,
      'src/four.ts': "import { scale } from './lib';\n\nexport const four = scale(2);\n",
      'src/lib.ts': TS['src/lib.ts'],
    });
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'clean', '-fdq');
  });
});

describe('gopls on cobra', () => {
  const dir = cobraAt(join(base, 'cobra'));
  const clean = tree(dir);
  const args = readFileSync(join(dir, 'args.go'), 'utf8');
  const noArgs = args.slice(args.indexOf('// NoArgs returns'), args.indexOf('// OnlyValidArgs returns'));
  /** A patch that deletes NoArgs from args.go: its uses, most in _test.go files, break. */
  const deleting = () => {
    const at = args.slice(0, args.indexOf(noArgs)).split('\n').length;
    const removed = noArgs.split('\n').slice(0, -1);
    return `--- a/args.go\n+++ b/args.go\n@@ -${at},${removed.length} +${at - 1},0 @@\n${removed.map((l) => `-${l}`).join('\n')}\n`;
  };

  test('deleting NoArgs: exit 1 naming each of its 51 broken uses, every file byte for byte as it was', async () => {
    const r = await lspq.run(['apply', patchFile('cobra-noargs', deleting()), '--timeout', '150'], { cwd: dir });
    expect(r.exit).toBe(1);
    const found = lines(r.stdout);
    expect(found.length).toBe(51);
    expect(
      found.every((l) => /^[a-z_]+\.go:\d+:\d+: error: undefined: NoArgs \[compiler UndeclaredName\]$/.test(l)),
    ).toBe(true);
    expect(found.filter((l) => l.split(':')[0]!.endsWith('_test.go')).length).toBeGreaterThan(40);
    expect(r.stderr).toBe(
      'lspq: 51 errors new with the patch (1 file touched) in 37 files; 12 problems already there, not counted; nothing written\n',
    );
    expect(tree(dir)).toEqual(clean);
  }, 200_000);

  test('a clean patch of args.go: written exactly', async () => {
    const doc = '// NoArgs returns an error if any args are included.\n';
    const at = args.slice(0, args.indexOf(doc)).split('\n').length;
    const patch = `--- a/args.go\n+++ b/args.go\n@@ -${at} +${at} @@\n-${doc}+// NoArgs returns an error if any positional args are given.\n`;
    const r = await lspq.run(['apply', patchFile('cobra-doc', patch), '--timeout', '150'], { cwd: dir });
    expect([r.exit, r.stdout]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'args.go'), 'utf8')).toBe(
      args.replace(doc, '// NoArgs returns an error if any positional args are given.\n'),
    );
    git(dir, 'checkout', '-q', '--', '.');
  }, 200_000);
});

test('a file changed by another program during the check: the write is refused, nothing of the patch written', async () => {
  const dir = fakeProject('apply-stale', 'edited-during-diagnostics');
  scratch.push(dir);
  const patch =
    '--- a/a.fake\n+++ b/a.fake\n@@ -1 +1 @@\n-hello a\n+howdy a\n--- a/b.fake\n+++ b/b.fake\n@@ -1 +1 @@\n-hello b\n+howdy b\n';
  const r = await lspq.run(['apply', patchFile('fake', patch)], { cwd: dir });
  expect(r).toEqual({
    exit: 3,
    stdout: '',
    stderr: `lspq: ${join(dir, 'b.fake')} changed since the server computed the edit; nothing was written (run the command again)\n`,
  });
  expect([readFileSync(join(dir, 'a.fake'), 'utf8'), readFileSync(join(dir, 'b.fake'), 'utf8')]).toEqual([
    'hello a\n',
    'hello b\nchanged by another program\n',
  ]);
});
