/**
 * diag --since REV on real servers (TypeScript, Python, Go): a project with
 * an old error is committed, then a change adds an error in a changed file
 * and changes a signature an unchanged caller uses. Only what the change
 * introduced is reported: the old error never, the caller's only with
 * --all, a fixed old error not at all; a renamed file follows its rename;
 * the index is compared with --staged; --changed-lines keeps the changed
 * lines; a REV that names no commit is exit 2; the work tree is byte for
 * byte what it was.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
const base = mkdtempSync(join(REPO, 'test', '.scratch', 'since-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

interface Language {
  name: string;
  /** The committed project: `lib` defines the function, `caller` calls it, `old` holds an old error. */
  files: Record<string, string>;
  lib: string;
  caller: string;
  old: string;
  /** `lib` with the function's signature changed and a new error added. */
  changed: string;
  /** The lines lspq prints for the change: the new error, then (with --all) the broken caller. */
  newError: string;
  brokenCaller: string;
  /** `old` with its error fixed. */
  fixed: string;
  /** The file moved with `git mv`, still holding the old error, and where the error then is. */
  renamedTo: string;
}

const LANGUAGES: Language[] = [
  {
    name: 'TypeScript (typescript)',
    files: {
      'tsconfig.json':
        '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
      'src/lib.ts': 'export function scale(x: number): number {\n  return x * 2;\n}\n',
      'src/caller.ts': "import { scale } from './lib';\n\nexport const twice = scale(2);\n",
      'src/old.ts': 'export const old: number = "an old error";\n',
    },
    lib: 'src/lib.ts',
    caller: 'src/caller.ts',
    old: 'src/old.ts',
    changed:
      'export function scale(x: number, by: number): number {\n  return x * by;\n}\n\nexport const fresh: number = "a new error";\n',
    newError: "src/lib.ts:5:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
    brokenCaller: 'src/caller.ts:3:22: error: Expected 2 arguments, but got 1. [ts 2554]',
    fixed: 'export const old: number = 1;\n',
    renamedTo: 'src/older.ts',
  },
  {
    name: 'Python (pyright)',
    files: {
      'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
      'lib.py': 'def scale(x: int) -> int:\n    return x * 2\n',
      'caller.py': 'from lib import scale\n\ntwice = scale(2)\n',
      'old.py': 'old: int = "an old error"\n',
    },
    lib: 'lib.py',
    caller: 'caller.py',
    old: 'old.py',
    changed: 'def scale(x: int, by: int) -> int:\n    return x * by\n\n\nfresh: int = "a new error"\n',
    newError:
      'lib.py:5:14: error: Type "Literal[\'a new error\']" is not assignable to declared type "int" "Literal[\'a new error\']" is not assignable to "int" [Pyright reportAssignmentType]',
    brokenCaller: 'caller.py:3:9: error: Argument missing for parameter "by" [Pyright reportCallIssue]',
    fixed: 'old: int = 1\n',
    renamedTo: 'older.py',
  },
  {
    name: 'Go (gopls)',
    files: {
      'go.mod': 'module example.com/since\n\ngo 1.22\n',
      'lib.go': 'package since\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n',
      'caller.go': 'package since\n\nvar Twice = Scale(2)\n',
      'old.go': 'package since\n\nvar Old int = "an old error"\n',
    },
    lib: 'lib.go',
    caller: 'caller.go',
    old: 'old.go',
    changed: 'package since\n\nfunc Scale(x, by int) int {\n\treturn x * by\n}\n\nvar Fresh int = "a new error"\n',
    newError:
      'lib.go:7:17: error: cannot use "a new error" (untyped string constant) as int value in variable declaration [compiler IncompatibleAssign]',
    brokenCaller:
      'caller.go:3:20: error: not enough arguments in call to Scale\n\thave (number)\n\twant (int, int) [compiler WrongArgCount]',
    fixed: 'package since\n\nvar Old int = 1\n',
    renamedTo: 'older.go',
  },
];

/** Every tracked and untracked file's text, to prove nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const files = git(dir, 'ls-files', '--cached', '--others', '--exclude-standard').split('\n').filter(Boolean);
  const texts = files.filter((f) => statSync(join(dir, f)).isFile());
  return Object.fromEntries(texts.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

const lines = (stdout: string) => stdout.split('\n').filter(Boolean);
/** How lspq prints a multi-line message: folded into one line. */
const printed = (line: string) => line.replace(/\s*\n\s*/g, ' ');

describe.each(LANGUAGES)('$name', (lang) => {
  const dir = join(base, lang.name.split(' ')[0]!.toLowerCase());
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(lang.files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base with an old error');
  const run = (args: string[]) => lspq.run(['diag', ...args], { cwd: dir });

  test('nothing changed: nothing new, the old error counted apart, exit 0', async () => {
    // An untracked link to a folder (a node_modules link) is among the changes and no source file.
    symlinkSync(mkdtempSync(join(tmpdir(), 'lspq-linked-')), join(dir, 'linked'));
    const r = await run(['--since', 'HEAD', '--all']);
    expect(r.stdout).toBe('');
    expect(r.exit).toBe(0);
    expect(r.stderr).toMatch(/^lspq: nothing new since HEAD in \d+ files; 1 problem already at HEAD, not counted\n$/);
  });

  test('a new error in the changed file; the broken caller only with --all; asked twice; nothing written', async () => {
    writeFileSync(join(dir, lang.lib), lang.changed);
    const before = snapshot(dir);
    const changedOnly = await run(['--since', 'HEAD', '--severity', 'error']);
    expect(lines(changedOnly.stdout)).toEqual([printed(lang.newError)]);
    expect(changedOnly.exit).toBe(1);
    for (let i = 0; i < 2; i++) {
      const all = await run(['--since', 'HEAD', '--all', '--severity', 'error']);
      expect(lines(all.stdout)).toEqual([printed(lang.newError), printed(lang.brokenCaller)].sort());
      expect(all.exit).toBe(1);
    }
    const json = await lspq.json<{
      diagnostics: { new?: boolean }[];
      since: { rev: string; present: Record<string, number> };
    }>(['diag', '--since', 'HEAD', '--all', '--severity', 'error'], { cwd: dir });
    expect(json.diagnostics.every((d) => d.new === true)).toBe(true);
    expect(json.since).toEqual({ rev: 'HEAD', present: { error: 1, warning: 0, info: 0, hint: 0 } });
    expect(snapshot(dir)).toEqual(before);
  });

  test('--changed-lines: only the error on a changed line (the caller did not change)', async () => {
    const r = await run(['--changed-lines', '--all', '--severity', 'error']);
    expect(lines(r.stdout)).toEqual([printed(lang.newError)]);
  });

  test('--staged compares the index: the change is not staged yet, so nothing is new', async () => {
    const r = await run(['--since', 'HEAD', '--staged', '--all', '--severity', 'error']);
    expect(r.stdout).toBe('');
    expect(r.exit).toBe(0);
    git(dir, 'add', lang.lib);
    const staged = await run(['--since', 'HEAD', '--staged', '--all', '--severity', 'error']);
    expect(lines(staged.stdout)).toEqual([printed(lang.newError), printed(lang.brokenCaller)].sort());
  });

  test('a fixed old error and a renamed file with its old error: neither is new', async () => {
    rmSync(join(dir, 'linked'));
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'reset', '-q');
    git(dir, 'checkout', '-q', '--', '.');
    writeFileSync(join(dir, lang.old), lang.fixed);
    const fixed = await run(['--since', 'HEAD', '--all']);
    expect(fixed.stdout).toBe('');
    expect(fixed.exit).toBe(0);
    git(dir, 'checkout', '-q', '--', lang.old);
    git(dir, 'mv', lang.old, lang.renamedTo);
    const renamed = await run(['--since', 'HEAD', '--all']);
    expect(renamed.stdout).toBe('');
    expect(renamed.exit).toBe(0);
    git(dir, 'mv', lang.renamedTo, lang.old);
  });

  test('a REV that names no commit, or that is an option: exit 2, one line', async () => {
    expect(await run(['--since', 'no-such-branch'])).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: --since: 'no-such-branch' names no commit in ${dir}; give a branch, a tag or a hash\n`,
    });
    expect((await run(['--since', '--output=x'])).exit).toBe(2);
  });
});
