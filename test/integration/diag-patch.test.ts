/**
 * diag --patch on real servers (TypeScript 7, typescript-language-server,
 * pyright, gopls): a committed project with an old error; a patch that
 * changes a signature an untouched caller uses and adds an error is checked
 * in memory. Only what it introduces is reported, the caller included, at
 * exact places; nothing is written and the servers hold the disk's text
 * again after; asked twice, from a file and from stdin, cold and warm.
 * Files the patch creates and deletes, where the server can be shown them
 * (TypeScript 7, gopls), and exit 3 naming the server where it cannot; a
 * patch that does not apply is exit 2 naming the hunk, an empty one exit 2
 * saying so; a patch check beside a plain diag of the same file: neither
 * sees the other's text. A chain of patches (--patch given again), each
 * checked on top of the ones before it: a line per step, the first that
 * introduces a problem named with its problems, the steps after it not
 * checked.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const base = scratchDir('patch');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

interface Language {
  name: string;
  server: string;
  /** The committed project: `lib` defines the function, `caller` calls it, `old` holds an old error. */
  files: Record<string, string>;
  lib: string;
  caller: string;
  /** The patch of `lib`: the signature changed, a new error added; and what lspq prints for it. */
  libPatch: string;
  newError: string;
  brokenCaller: string;
  /** The files a patch of `lib` can reach (`lib` and its importers; Go: its package and go.mod), those it checks. */
  checked: string[];
  /** The old error, listed by --all when its file is patched. */
  oldError: string;
  old: string;
  oldPatch: string;
  /** A patch that creates a file the caller then imports, and deletes `lib`: the lines printed, or exit 3's message. */
  createDelete: string;
  created: string[] | string;
}

const TS_FILES = {
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
  'src/lib.ts': 'export function scale(x: number): number {\n  return x * 2;\n}\n',
  'src/caller.ts': "import { scale } from './lib';\n\nexport const twice = scale(2);\n",
  'src/old.ts': 'export const old: number = "an old error";\n\nexport const fine = 1;\n',
};
const TS_LIB_PATCH = [
  'diff --git a/src/lib.ts b/src/lib.ts',
  '--- a/src/lib.ts',
  '+++ b/src/lib.ts',
  '@@ -1,3 +1,5 @@',
  '-export function scale(x: number): number {',
  '-  return x * 2;',
  '+export function scale(x: number, by: number): number {',
  '+  return x * by;',
  ' }',
  '+',
  '+export const fresh: number = "a new error";',
  '',
].join('\n');
const TS_OLD_PATCH =
  '--- a/src/old.ts\n+++ b/src/old.ts\n@@ -2,2 +2,2 @@\n \n-export const fine = 1;\n+export const fine = 2;\n';
const TS_CREATE_DELETE = [
  'diff --git a/src/extra.ts b/src/extra.ts',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/src/extra.ts',
  '@@ -0,0 +1 @@',
  '+export const extra: string = "x";',
  'diff --git a/src/caller.ts b/src/caller.ts',
  '--- a/src/caller.ts',
  '+++ b/src/caller.ts',
  '@@ -1,3 +1,4 @@',
  " import { scale } from './lib';",
  "+import { extra } from './extra';",
  ' ',
  '-export const twice = scale(2);',
  '+export const twice: number = extra;',
  'diff --git a/src/lib.ts b/src/lib.ts',
  'deleted file mode 100644',
  '--- a/src/lib.ts',
  '+++ /dev/null',
  '@@ -1,3 +0,0 @@',
  '-export function scale(x: number): number {',
  '-  return x * 2;',
  '-}',
  '',
].join('\n');

const LANGUAGES: Language[] = [
  {
    name: 'TypeScript 7',
    server: 'typescript',
    files: TS_FILES,
    lib: 'src/lib.ts',
    caller: 'src/caller.ts',
    libPatch: TS_LIB_PATCH,
    checked: ['src/caller.ts', 'src/lib.ts'],
    newError: "src/lib.ts:5:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
    brokenCaller: 'src/caller.ts:3:22: error: Expected 2 arguments, but got 1. [ts 2554]',
    old: 'src/old.ts',
    oldPatch: TS_OLD_PATCH,
    oldError: "src/old.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
    createDelete: TS_CREATE_DELETE,
    created: [
      "src/caller.ts:1:10: hint: 'scale' is declared but its value is never read. [ts 6133]",
      "src/caller.ts:1:23: error: Cannot find module './lib' or its corresponding type declarations. [ts 2307]",
      "src/caller.ts:4:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
    ],
  },
  {
    name: 'typescript-language-server',
    server: 'typescript-language-server',
    files: TS_FILES,
    lib: 'src/lib.ts',
    caller: 'src/caller.ts',
    libPatch: TS_LIB_PATCH,
    checked: ['src/caller.ts', 'src/lib.ts'],
    newError: "src/lib.ts:5:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]",
    brokenCaller: 'src/caller.ts:3:22: error: Expected 2 arguments, but got 1. [typescript 2554]',
    old: 'src/old.ts',
    oldPatch: TS_OLD_PATCH,
    oldError: "src/old.ts:1:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]",
    createDelete: TS_CREATE_DELETE,
    created:
      "typescript-language-server reads src/extra.ts from the disk: it cannot be shown a file that is not on disk without writing it; write the edit and ask 'lspq diag --since HEAD --all'",
  },
  {
    name: 'pyright',
    server: 'pyright',
    files: {
      'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
      'lib.py': 'def scale(x: int) -> int:\n    return x * 2\n',
      'caller.py': 'from lib import scale\n\ntwice = scale(2)\n',
      'old.py': 'old: int = "an old error"\n\nfine = 1\n',
    },
    lib: 'lib.py',
    caller: 'caller.py',
    libPatch:
      '--- a/lib.py\n+++ b/lib.py\n@@ -1,2 +1,5 @@\n-def scale(x: int) -> int:\n-    return x * 2\n+def scale(x: int, by: int) -> int:\n+    return x * by\n+\n+\n+fresh: int = "a new error"\n',
    checked: ['caller.py', 'lib.py'],
    newError:
      'lib.py:5:14: error: Type "Literal[\'a new error\']" is not assignable to declared type "int" "Literal[\'a new error\']" is not assignable to "int" [Pyright reportAssignmentType]',
    brokenCaller: 'caller.py:3:9: error: Argument missing for parameter "by" [Pyright reportCallIssue]',
    old: 'old.py',
    oldPatch: '--- a/old.py\n+++ b/old.py\n@@ -2,2 +2,2 @@\n \n-fine = 1\n+fine = 2\n',
    oldError:
      'old.py:1:12: error: Type "Literal[\'an old error\']" is not assignable to declared type "int" "Literal[\'an old error\']" is not assignable to "int" [Pyright reportAssignmentType]',
    createDelete:
      '--- /dev/null\n+++ b/extra.py\n@@ -0,0 +1 @@\n+extra: str = "x"\n--- a/caller.py\n+++ b/caller.py\n@@ -1,3 +1,4 @@\n from lib import scale\n+from extra import extra\n \n-twice = scale(2)\n+twice: int = extra\n',
    created:
      "pyright reads extra.py from the disk: it cannot be shown a file that is not on disk without writing it; write the edit and ask 'lspq diag --since HEAD --all'",
  },
  {
    name: 'gopls',
    server: 'gopls',
    files: {
      'go.mod': 'module example.com/patch\n\ngo 1.22\n',
      'lib.go': 'package patch\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n',
      'caller.go': 'package patch\n\nvar Twice = Scale(2)\n',
      'old.go': 'package patch\n\nvar Old int = "an old error"\n\nvar Fine = 1\n',
    },
    lib: 'lib.go',
    caller: 'caller.go',
    libPatch:
      '--- a/lib.go\n+++ b/lib.go\n@@ -1,5 +1,7 @@\n package patch\n \n-func Scale(x int) int {\n-\treturn x * 2\n+func Scale(x, by int) int {\n+\treturn x * by\n }\n+\n+var Fresh int = "a new error"\n',
    checked: ['caller.go', 'go.mod', 'lib.go', 'old.go'],
    newError:
      'lib.go:7:17: error: cannot use "a new error" (untyped string constant) as int value in variable declaration [compiler IncompatibleAssign]',
    brokenCaller:
      'caller.go:3:20: error: not enough arguments in call to Scale have (number) want (int, int) [compiler WrongArgCount]',
    old: 'old.go',
    oldPatch: '--- a/old.go\n+++ b/old.go\n@@ -4,2 +4,2 @@\n \n-var Fine = 1\n+var Fine = 2\n',
    oldError:
      'old.go:3:15: error: cannot use "an old error" (untyped string constant) as int value in variable declaration [compiler IncompatibleAssign]',
    createDelete:
      '--- /dev/null\n+++ b/extra.go\n@@ -0,0 +1,3 @@\n+package patch\n+\n+var Extra = "x"\n--- a/caller.go\n+++ b/caller.go\n@@ -1,3 +1,3 @@\n package patch\n \n-var Twice = Scale(2)\n+var Twice int = Extra\n--- a/lib.go\n+++ /dev/null\n@@ -1,5 +0,0 @@\n-package patch\n-\n-func Scale(x int) int {\n-\treturn x * 2\n-}\n',
    created: [
      'caller.go:3:17: error: cannot use Extra (variable of type string) as int value in variable declaration [compiler IncompatibleAssign]',
    ],
  },
];

/** Every file's text, to prove nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const files = git(dir, 'ls-files', '--cached', '--others', '--exclude-standard').split('\n').filter(Boolean);
  const texts = files.filter((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile());
  return Object.fromEntries(texts.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

/** lspq with `input` on its stdin. */
/** lspq with `input` on its stdin. */
const piped = (args: string[], cwd: string, input: string) => lspq.run(args, { cwd, stdin: input });

describe.each(LANGUAGES)('$name', (lang) => {
  const dir = join(base, lang.server);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(lang.files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base with an old error');
  const patchFile = join(dir, '..', `${lang.server}.patch`);
  writeFileSync(patchFile, lang.libPatch);
  const run = (args: string[]) => lspq.run(['diag', ...args, '--server', lang.server], { cwd: dir });
  const clean = snapshot(dir);

  // The old error is counted where its file is one the patch can reach (Go: the same package).
  const present = lang.checked.includes(lang.old) ? '; 1 problem already there, not counted' : '';

  test('cold, then warm: the new error and the broken caller, not the old error; nothing written', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await run(['--patch', patchFile]);
      expect(lines(r.stdout)).toEqual([lang.brokenCaller, lang.newError].sort());
      expect(r.stderr).toBe(
        `lspq: 2 errors new with the patch (1 file touched) in ${lang.checked.length} files${present}\n`,
      );
      expect(r.exit).toBe(1);
      expect(snapshot(dir)).toEqual(clean);
    }
  });

  test('the servers hold the disk again: a plain diag of the touched file and its caller is clean', async () => {
    const r = await run([lang.lib, lang.caller]);
    expect([r.stdout, r.exit]).toEqual(['', 0]);
  });

  test('from stdin, as JSON: the patch field, each diagnostic new', async () => {
    const r = await piped(['diag', '--patch', '-', '--server', lang.server, '--json'], dir, lang.libPatch);
    const json = JSON.parse(r.stdout) as {
      files: string[];
      diagnostics: { path: string; new?: boolean }[];
      patch: { files: string[]; introduced: Record<string, number>; present: Record<string, number> };
    };
    expect(json.diagnostics.map((d) => [d.path, d.new])).toEqual(
      [lang.brokenCaller, lang.newError].sort().map((l) => [l.split(':')[0], true]),
    );
    // Only the files that import the patched one (none imports old): a file that imports nothing of it cannot break.
    expect(json.files).toEqual(lang.checked);
    expect(json.patch).toEqual({
      files: [lang.lib],
      introduced: { error: 2, warning: 0, info: 0, hint: 0 },
      present: { error: present ? 1 : 0, warning: 0, info: 0, hint: 0 },
    });
    expect(r.exit).toBe(1);
  });

  test("a patch that introduces nothing: exit 0; --all lists the patched file's old error, not new", async () => {
    const none = await run(['--patch', writePatch(lang.oldPatch)]);
    expect([none.stdout, none.exit]).toEqual(['', 0]);
    // old imports nothing and nothing imports it: it alone is checked (Go: its package, and go.mod).
    const reach = lang.server === 'gopls' ? '4 files' : '1 file';
    expect(none.stderr).toBe(
      `lspq: nothing new with the patch (1 file touched) in ${reach}; 1 problem already there, not counted\n`,
    );
    const all = await lspq.json<{ diagnostics: { new?: boolean }[] }>(
      ['diag', '--patch', writePatch(lang.oldPatch), '--all', '--server', lang.server],
      { cwd: dir },
    );
    expect(all.diagnostics.map((d) => d.new)).toEqual([false]);
    const human = await run(['--patch', writePatch(lang.oldPatch), '--all']);
    expect([lines(human.stdout), human.exit]).toEqual([[lang.oldError], 1]);
  });

  test('files the patch creates and deletes', async () => {
    const r = await run(['--patch', writePatch(lang.createDelete), '--severity', 'hint']);
    if (typeof lang.created === 'string') {
      expect(r).toEqual({ exit: 3, stdout: '', stderr: `lspq: ${lang.created}\n` });
    } else {
      expect(lines(r.stdout)).toEqual(lang.created);
      expect(r.exit).toBe(1);
    }
    expect(snapshot(dir)).toEqual(clean);
    // The deleted file is back for every later question.
    const after = await run([lang.lib, lang.caller]);
    expect([after.stdout, after.exit]).toEqual(['', 0]);
  });

  test('a problem added on disk between two checks is old to the next one; reverted, the first answer again', async () => {
    const later = {
      typescript: '\nexport const later: number = "a later error";\n',
      'typescript-language-server': '\nexport const later: number = "a later error";\n',
      pyright: '\nlater: int = "a later error"\n',
      gopls: '\nvar Later int = "a later error"\n',
    }[lang.server];
    const first = await run(['--patch', patchFile]);
    const callerPath = join(dir, lang.caller);
    const was = readFileSync(callerPath, 'utf8');
    // Written right before the question, as another program's bulk change: what was said of the disk before no longer holds.
    writeFileSync(callerPath, was + later);
    try {
      const r = await run(['--patch', patchFile]);
      expect(lines(r.stdout)).toEqual([lang.brokenCaller, lang.newError].sort());
      const already = lang.checked.includes(lang.old) ? 2 : 1;
      expect(r.stderr).toBe(
        `lspq: 2 errors new with the patch (1 file touched) in ${lang.checked.length} files; ${already} problem${already > 1 ? 's' : ''} already there, not counted\n`,
      );
    } finally {
      writeFileSync(callerPath, was);
    }
    expect(await run(['--patch', patchFile])).toEqual(first);
  });

  function writePatch(text: string): string {
    const path = join(dir, '..', `${lang.server}-${Bun.hash(text)}.patch`);
    writeFileSync(path, text);
    return path;
  }
});

describe('TypeScript 7: several files, CRLF, a subfolder, a patch that does not apply, two questions at once', () => {
  const dir = join(base, 'extras');
  const files: Record<string, string> = {
    ...TS_FILES,
    'src/dos.ts': 'export const dos = 1;\r\nexport const tres = 3;\r\n',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  // The CRLF file is committed as it is (git diff then prints its lines with their CR).
  git(dir, '-c', 'core.autocrlf=false', 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  const clean = snapshot(dir);
  /** What git diff prints for an edit of the work tree, the tree then put back. */
  const diffOf = (edits: Record<string, string>) => {
    for (const [name, text] of Object.entries(edits)) writeFileSync(join(dir, name), text);
    const patch = git(dir, 'diff');
    git(dir, 'checkout', '-q', '--', '.');
    return patch;
  };
  const several = diffOf({
    'src/lib.ts': 'export function scale(x: number, by: number): number {\n  return x * by;\n}\n',
    'src/dos.ts': 'export const dos: string = 1;\r\nexport const tres = 3;\r\n',
  });
  const patchFile = join(base, 'extras.patch');
  writeFileSync(patchFile, several);
  const expected = [
    'src/caller.ts:3:22: error: Expected 2 arguments, but got 1. [ts 2554]',
    "src/dos.ts:1:14: error: Type 'number' is not assignable to type 'string'. [ts 2322]",
  ];

  test('a git diff of two files, one of them CRLF: both checked, exact places', async () => {
    expect(several).toContain('\r\n');
    const r = await lspq.run(['diag', '--patch', patchFile], { cwd: dir });
    expect([lines(r.stdout), r.exit]).toEqual([expected, 1]);
    expect(snapshot(dir)).toEqual(clean);
  });

  test("run from a subfolder: git's paths are read from the repository's top", async () => {
    const r = await lspq.run(['diag', '--patch', patchFile], { cwd: join(dir, 'src') });
    expect([lines(r.stdout), r.exit]).toEqual([expected.map((l) => l.slice('src/'.length)), 1]);
  });

  test('a patch that does not apply: exit 2 naming the file, the hunk and the line; nothing asked', async () => {
    const wrong = several.replace('-  return x * 2;', '-  return x * 3;');
    const r = await piped(['diag', '--patch', '-'], dir, wrong);
    expect(r).toEqual({
      exit: 2,
      stdout: '',
      stderr:
        'lspq: the patch does not apply: src/lib.ts hunk 1 (@@ -1,3 +1,3 @@) expects "  return x * 3;" at line 2, where the file has "  return x * 2;"\n',
    });
  });

  test('an empty patch (git diff of a clean tree), from stdin or a file: exit 2 saying so, text and JSON; nothing asked', async () => {
    const empty =
      "lspq: the patch is empty: there is nothing to check; give a unified diff (git diff's output) that changes something\n";
    expect(git(dir, 'diff')).toBe('');
    expect(await piped(['diag', '--patch', '-'], dir, git(dir, 'diff'))).toEqual({
      exit: 2,
      stdout: '',
      stderr: empty,
    });
    const file = join(base, 'empty.patch');
    writeFileSync(file, '\n');
    expect(await lspq.run(['diag', '--patch', file], { cwd: dir })).toEqual({ exit: 2, stdout: '', stderr: empty });
    expect(await lspq.json(['diag', '--patch', file], { cwd: dir })).toEqual({
      error: { code: 'usage', message: empty.slice('lspq: '.length, -1) },
    });
  });

  test('a patch check beside a plain diag of the same files, three times: neither sees the other', async () => {
    for (let i = 0; i < 3; i++) {
      const [patched, plain] = await Promise.all([
        lspq.run(['diag', '--patch', patchFile], { cwd: dir }),
        lspq.run(['diag', 'src/lib.ts', 'src/caller.ts', 'src/dos.ts'], { cwd: dir }),
      ]);
      expect([lines(patched.stdout), patched.exit]).toEqual([expected, 1]);
      expect([plain.stdout, plain.stderr, plain.exit]).toEqual(['', 'lspq: no problems in 3 files\n', 0]);
    }
    expect(snapshot(dir)).toEqual(clean);
  });
});

test("rust-analyzer: its own diagnostics of the patched text; cargo check's, which read the disk, named as left out (exit 3)", async () => {
  const dir = join(base, 'rust');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "patch"\nversion = "0.1.0"\nedition = "2021"\n');
  writeFileSync(join(dir, 'src/lib.rs'), 'pub fn twice(n: i32) -> i32 {\n    n * 2\n}\n');
  writeFileSync(join(dir, 'src/main.rs'), 'mod lib;\n\nfn main() {\n    println!("{}", lib::twice(2));\n}\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  const patch =
    '--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n-pub fn twice(n: i32) -> i32 {\n-    n * 2\n+pub fn twice(n: i32, by: i32) -> i32 {\n+    n * by\n }\n';
  const r = await piped(['diag', '--patch', '-', '--timeout', '150'], dir, patch);
  expect(r.stdout).toBe('src/main.rs:4:32: error: expected 2 arguments, found 1 [rust-analyzer E0107]\n');
  expect(r.stderr).toBe(
    "lspq: 1 error new with the patch (1 file touched) in 2 files\nlspq: diagnostics are incomplete: rust-analyzer left out cargo check's diagnostics (it checks the files on disk, not text held in memory) (write the edit and ask 'lspq diag --since HEAD --all')\n",
  );
  expect(r.exit).toBe(3);
}, 240_000);

describe('a chain of patches (gopls): each checked on top of the ones before it', () => {
  const dir = join(base, 'chain');
  const files: Record<string, string> = {
    'go.mod': 'module example.com/chain\n\ngo 1.22\n',
    'lib.go': 'package chain\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n',
    'caller.go': 'package chain\n\nvar Twice = Scale(2)\n',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  const clean = snapshot(dir);
  const write = (name: string, text: string) => {
    const path = join(base, `chain-${name}.patch`);
    writeFileSync(path, text);
    return path;
  };
  // Adds Triple; then (its context is what the first added) makes it return a string it does not; then a caller of it.
  const add = write(
    'add',
    '--- a/lib.go\n+++ b/lib.go\n@@ -3,3 +3,7 @@\n func Scale(x int) int {\n \treturn x * 2\n }\n+\n+func Triple(x int) int {\n+\treturn x * 3\n+}\n',
  );
  const retype = write(
    'retype',
    '--- a/lib.go\n+++ b/lib.go\n@@ -7,3 +7,3 @@\n \n-func Triple(x int) int {\n+func Triple(x int) string {\n \treturn x * 3\n',
  );
  const use = write(
    'use',
    '--- a/caller.go\n+++ b/caller.go\n@@ -3 +3,2 @@\n var Twice = Scale(2)\n+var Six = Triple(2)\n',
  );
  const retyped =
    'lib.go:8:9: error: cannot use x * 3 (value of type int) as string value in return statement [compiler IncompatibleAssign]';

  test('the second step breaks what the first added: a line per step, its problems under it, exit 1', async () => {
    const r = await lspq.run(['diag', '--patch', add, '--patch', retype, '--patch', use], { cwd: dir });
    expect(r.stdout).toBe(
      [
        `step 1 of 3 (${add}): introduces nothing`,
        `step 2 of 3 (${retype}): introduces 1 error`,
        retyped,
        `step 3 of 3 (${use}): not checked (step 2 introduces problems)`,
        '',
      ].join('\n'),
    );
    expect(r.stderr).toMatch(/^lspq: 1 error new with 3 patches \(2 files touched\) in \d+ files\n$/);
    expect(r.exit).toBe(1);
    expect(snapshot(dir)).toEqual(clean);
  });

  test('as JSON (the schema checks it): steps with what each introduced; the last from stdin', async () => {
    const r = await piped(['diag', '--patch', add, '--patch', '-', '--json'], dir, readFileSync(retype, 'utf8'));
    const doc = JSON.parse(r.stdout) as {
      steps: { patch: string; checked: boolean; introduced: Record<string, number>; diagnostics: { path: string }[] }[];
    };
    expect(doc.steps.map((s) => [s.patch, s.checked, s.introduced.error, s.diagnostics.map((d) => d.path)])).toEqual([
      [add, true, 0, []],
      ['-', true, 1, ['lib.go']],
    ]);
    expect(r.exit).toBe(1);
  });

  test('a clean chain: exit 0, each step introducing nothing; with --all, or - twice: a usage error', async () => {
    const r = await lspq.run(['diag', '--patch', add, '--patch', use], { cwd: dir });
    expect([r.stdout, r.exit]).toEqual([
      `step 1 of 2 (${add}): introduces nothing\nstep 2 of 2 (${use}): introduces nothing\n`,
      0,
    ]);
    expect(await lspq.run(['diag', '--patch', add, '--patch', use, '--all'], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr: "lspq: --all lists the old problems of one patch's files: give one --patch with it, or leave --all out\n",
    });
    expect(await piped(['diag', '--patch', '-', '--patch', '-'], dir, '')).toEqual({
      exit: 2,
      stdout: '',
      stderr: 'lspq: - reads a patch from stdin, which holds one: give the other patches as files\n',
    });
    expect(snapshot(dir)).toEqual(clean);
  });
});
