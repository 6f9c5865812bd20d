import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, exactPath, FIXTURES, git, Lspq, scratchDir } from '../helpers/lspq';
import { anyhowAt, xSyncAt } from '../helpers/published';

const lspq = new Lspq();
// No language server at all, whatever the machine has in /usr/bin.
const emptyPath = exactPath(['git']);
const scratch: string[] = [emptyPath];

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function lines(...l: string[]): string {
  return l.map((x) => `${x}\n`).join('');
}

describe('diag on known errors and warnings, one language each', () => {
  const cases: { lang: string; file: string; args?: string[]; stdout: string; summary: string; exit?: number }[] = [
    {
      lang: 'TypeScript 7 (pull)',
      file: 'ts-diag/src/broken.ts',
      stdout: lines(
        "ts-diag/src/broken.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
        "ts-diag/src/broken.ts:4:24: error: Cannot find name 'missing'. [ts 2304]",
      ),
      summary: '2 errors in 1 file',
    },
    {
      lang: 'pyright (pull) and ruff (a second server), merged and labelled',
      file: 'py-diag/broken.py',
      stdout: lines(
        'py-diag/broken.py:1:14: error: Type "Literal[\'three\']" is not assignable to declared type "int" "Literal[\'three\']" is not assignable to "int" [Pyright reportAssignmentType]',
        'py-diag/broken.py:5:24: error: "missing" is not defined [Pyright reportUndefinedVariable]',
        'py-diag/broken.py:5:24: error: Undefined name `missing` [Ruff F821]',
        'py-diag/broken.py:8:1: warning: Expression value is unused [Pyright reportUnusedExpression]',
        'py-diag/broken.py:8:1: warning: Pointless comparison. Did you mean to assign a value? Otherwise, prepend `assert` or remove it. [Ruff B015]',
      ),
      summary: '3 errors, 2 warnings in 1 file',
    },
    {
      lang: 'typescript-language-server (unversioned push waves)',
      file: 'ts-diag/src/broken.ts',
      args: ['--server', 'typescript-language-server'],
      stdout: lines(
        "ts-diag/src/broken.ts:1:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]",
        "ts-diag/src/broken.ts:4:24: error: Cannot find name 'missing'. [typescript 2304]",
      ),
      summary: '2 errors in 1 file',
    },
    {
      lang: 'gopls (diagnose_files barrier)',
      file: 'go-diag/broken.go',
      stdout: lines(
        'go-diag/broken.go:5:17: error: cannot use "three" (untyped string constant) as int value in variable declaration [compiler IncompatibleAssign]',
        'go-diag/broken.go:9:21: error: undefined: missing [compiler UndeclaredName]',
      ),
      summary: '2 errors in 1 file',
    },
    {
      lang: 'gopls analyzers (warnings)',
      file: 'go-diag/vet/vet.go',
      stdout: lines(
        'go-diag/vet/vet.go:6:14: warning: fmt.Printf format %d has arg name of wrong type string [printf default]',
      ),
      summary: '1 warning in 1 file',
      exit: 0,
    },
    {
      lang: 'clangd (versioned push)',
      file: 'c-diag/broken.c',
      stdout: lines(
        "c-diag/broken.c:3:9: error: Use of undeclared identifier 'missing' [clang undeclared_var_use]",
        "c-diag/broken.c:8:6: warning: Unused variable 'unused' [clang -Wunused-variable]",
      ),
      summary: '1 error, 1 warning in 1 file',
    },
  ];
  for (const c of cases) {
    test(`${c.lang}: cold, exact lines, columns and severities`, async () => {
      const r = await lspq.run(['diag', c.file, ...(c.args ?? []), '--no-daemon'], { cwd: FIXTURES });
      expect(r.stdout).toBe(c.stdout);
      expect(r.stderr).toBe(`lspq: ${c.summary}\n`);
      expect(r.exit).toBe(c.exit ?? 1);
    });
    test(`${c.lang}: warm through the daemon, twice`, async () => {
      for (let i = 0; i < 2; i++) {
        const r = await lspq.run(['diag', c.file, ...(c.args ?? [])], { cwd: FIXTURES });
        expect(r.stdout).toBe(c.stdout);
        expect(r.exit).toBe(c.exit ?? 1);
      }
    });
  }

  test.each(['ts-diag/src/clean.ts', 'py-diag/clean.py', 'go-diag/clean.go', 'c-diag/clean.c'])(
    '%s: no errors, exit 0',
    async (file) => {
      const r = await lspq.run(['diag', file], { cwd: FIXTURES });
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('lspq: no problems in 1 file\n');
      expect(r.exit).toBe(0);
    },
  );
});

describe('filters, JSON and exit codes', () => {
  test('--json has the contract shape', async () => {
    const r = await lspq.json(['diag', 'c-diag/broken.c', 'go-diag/clean.go'], { cwd: FIXTURES });
    expect(r).toEqual({
      diagnostics: [
        {
          path: 'c-diag/broken.c',
          line: 3,
          column: 9,
          endLine: 3,
          endColumn: 16,
          severity: 'error',
          message: "Use of undeclared identifier 'missing'",
          source: 'clang',
          code: 'undeclared_var_use',
        },
        {
          path: 'c-diag/broken.c',
          line: 8,
          column: 6,
          endLine: 8,
          endColumn: 12,
          severity: 'warning',
          message: "Unused variable 'unused'",
          source: 'clang',
          code: '-Wunused-variable',
        },
      ],
      summary: { error: 1, warning: 1, info: 0, hint: 0 },
      // Errors and warnings are listed unless --severity says otherwise; what is below is counted apart.
      shown: 'warning',
      hidden: { error: 0, warning: 0, info: 0, hint: 0 },
      files: ['c-diag/broken.c', 'go-diag/clean.go'],
      total: 2,
      truncated: false,
      incomplete: [],
      skipped: [],
      server: 'clangd',
      root: join(FIXTURES, 'c-diag'),
      // Each server with the root it answered for: never two lists to pair by position.
      servers: [
        { server: 'clangd', root: join(FIXTURES, 'c-diag') },
        { server: 'gopls', root: join(FIXTURES, 'go-diag') },
      ],
      withheld: [],
      unchecked: [],
    });
  });

  test('--json with one server: server and root are strings, as in every other answer', async () => {
    const r = await lspq.json<{ server: unknown; root: unknown }>(['diag', 'go-diag/clean.go'], { cwd: FIXTURES });
    expect(r.server).toBe('gopls');
    expect(r.root).toBe(join(FIXTURES, 'go-diag'));
  });

  test('--severity error hides warnings', async () => {
    const r = await lspq.run(['diag', 'c-diag/broken.c', '--severity', 'error'], { cwd: FIXTURES });
    expect(r.stdout).toBe(
      lines(
        "c-diag/broken.c:3:9: error: Use of undeclared identifier 'missing' [clang undeclared_var_use]",
        'and 1 warning: --severity warning to show',
      ),
    );
  });

  test('--severity chooses what is shown, --fail-on judges everything found', async () => {
    const r = await lspq.run(['diag', 'go-diag/vet/vet.go', '--severity', 'error', '--fail-on', 'warning'], {
      cwd: FIXTURES,
    });
    // What is not listed is said, in one line: never hidden unsaid.
    expect(r.stdout).toBe('1 warning: --severity warning to show\n');
    expect(r.stderr).toBe('lspq: 1 warning in 1 file\n');
    expect(r.exit).toBe(1);
    const json = await lspq.json<{ diagnostics: unknown[]; summary: Record<string, number> }>(
      ['diag', 'go-diag/vet/vet.go', '--severity', 'error'],
      { cwd: FIXTURES },
    );
    expect(json.diagnostics).toEqual([]);
    expect(json.summary).toEqual({ error: 0, warning: 1, info: 0, hint: 0 });
    expect(json).toMatchObject({ shown: 'error', hidden: { error: 0, warning: 1, info: 0, hint: 0 } });
  });

  test('--fail-on warning fails on a warning; the default does not', async () => {
    expect((await lspq.run(['diag', 'go-diag/vet/vet.go', '--fail-on', 'warning'], { cwd: FIXTURES })).exit).toBe(1);
    expect((await lspq.run(['diag', 'go-diag/vet/vet.go'], { cwd: FIXTURES })).exit).toBe(0);
  });

  test('--limit cuts and says so', async () => {
    const r = await lspq.json(['diag', 'py-diag/broken.py', '--limit', '1'], { cwd: FIXTURES });
    expect(r).toMatchObject({ total: 5, truncated: true, summary: { error: 3, warning: 2, info: 0, hint: 0 } });
    expect((r.diagnostics as unknown[]).length).toBe(1);
  });

  test('a bad --fail-on is bad input', async () => {
    const r = await lspq.run(['diag', 'c-diag/clean.c', '--fail-on', 'fatal'], { cwd: FIXTURES });
    expect(r.exit).toBe(2);
    expect(r.stderr).toBe("lspq: --fail-on takes one of error, warning, info, hint, never, none, not 'fatal'\n");
  });

  test('--fail-on never (or none) lists every error and exits 0', async () => {
    const failing = await lspq.run(['diag', 'py-diag/broken.py'], { cwd: FIXTURES });
    expect(failing.exit).toBe(1);
    for (const never of ['never', 'none']) {
      const r = await lspq.run(['diag', 'py-diag/broken.py', '--fail-on', never], { cwd: FIXTURES });
      expect(r).toEqual({ ...failing, exit: 0 });
    }
  });

  test('a file no server handles, named, is exit 3 with the known extensions', async () => {
    const r = await lspq.run(['diag', 'ts-diag/package.json'], { cwd: FIXTURES, env: { PATH: emptyPath } });
    expect(r.exit).toBe(3);
    expect(r.stderr).toContain('vscode-json-language-server is not installed');
  });
});

describe('edit, then diag, with the daemon warm', () => {
  const edits = [
    {
      fixture: 'ts-diag',
      file: 'src/broken.ts',
      fixed:
        'export const count: number = 3;\n\nexport function size(text: string): number {\n  return text.length + undefinedName;\n}\n',
      newError: /src\/broken\.ts:4:24: error: Cannot find name 'undefinedName'\./,
    },
    {
      fixture: 'py-diag',
      file: 'broken.py',
      fixed: 'count: int = 3\n\n\ndef size(text: str) -> int:\n    return len(text) + undefined_name\n',
      newError: /broken\.py:5:24: error: "undefined_name" is not defined/,
    },
    {
      fixture: 'go-diag',
      file: 'broken.go',
      fixed:
        'package diag\n\nvar count int = 3\n\nfunc Size(text string) int {\n\treturn len(text) + undefinedName\n}\n',
      newError: /broken\.go:6:21: error: undefined: undefinedName/,
    },
    {
      fixture: 'c-diag',
      file: 'broken.c',
      fixed: 'int size(const char *text)\n{\n\treturn undefined_name + 1;\n}\n',
      newError: /broken\.c:3:9: error: Use of undeclared identifier 'undefined_name'/,
    },
  ];
  for (const e of edits) {
    test(`${e.fixture}: the fixed error is gone, the new one is found`, async () => {
      const dir = copyFixture(e.fixture);
      scratch.push(dir);
      const first = await lspq.run(['diag', e.file], { cwd: dir });
      expect(first.exit).toBe(1);
      expect(first.stdout).not.toMatch(e.newError);
      writeFileSync(join(dir, e.file), e.fixed);
      const second = await lspq.run(['diag', e.file], { cwd: dir });
      expect(second.stdout).toMatch(e.newError);
      // The old errors (the string assigned to a number, the name 'missing') are gone.
      expect(second.stdout).not.toMatch(/three|missing/);
      expect(second.exit).toBe(1);
    });
  }
});

describe('--staged and the changed files', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyFixture('py-diag');
    scratch.push(repo);
    git(repo, 'init', '-q');
    git(repo, 'add', 'clean.py', 'pyproject.toml');
    git(repo, 'commit', '-q', '-m', 'init');
  });

  test('--staged checks exactly the staged files', async () => {
    writeFileSync(join(repo, 'clean.py'), 'def twice(n: int) -> int:\n    return n * "2"\n');
    git(repo, 'add', 'clean.py');
    const r = await lspq.json(['diag', '--staged'], { cwd: repo });
    expect(r.files).toEqual(['clean.py']);
    expect(r.summary).toEqual({ error: 1, warning: 0, info: 0, hint: 0 });
  });

  test('no files in a git repository takes the changed and untracked files', async () => {
    const r = await lspq.json(['diag'], { cwd: repo });
    expect(r.files).toEqual(['broken.py', 'clean.py']);
    expect(r.summary).toEqual({ error: 4, warning: 2, info: 0, hint: 0 });
  });

  test('--staged checks the staged content: staged broken, fixed in the work tree, fails at the staged positions', async () => {
    const broken = 'def twice(n: int) -> int:\n\n    return n * nope\n';
    const fixed = 'def twice(n: int) -> int:\n    return n * 2\n';
    writeFileSync(join(repo, 'clean.py'), broken);
    git(repo, 'add', 'clean.py');
    writeFileSync(join(repo, 'clean.py'), fixed);
    const r = await lspq.run(['diag', '--staged'], { cwd: repo });
    expect(r.stdout).toBe(
      lines(
        'clean.py:3:16: error: "nope" is not defined [Pyright reportUndefinedVariable]',
        'clean.py:3:16: error: Undefined name `nope` [Ruff F821]',
      ),
    );
    expect(r.exit).toBe(1);
    // The work tree is never written, and the next question sees it again.
    expect(readFileSync(join(repo, 'clean.py'), 'utf8')).toBe(fixed);
    const now = await lspq.run(['diag', 'clean.py'], { cwd: repo });
    expect({ stdout: now.stdout, exit: now.exit }).toEqual({ stdout: '', exit: 0 });
  });

  test('--staged: staged clean, broken in the work tree, passes', async () => {
    const fixed = 'def twice(n: int) -> int:\n    return n + n\n';
    writeFileSync(join(repo, 'clean.py'), fixed);
    git(repo, 'add', 'clean.py');
    writeFileSync(join(repo, 'clean.py'), 'def twice(n: int) -> int:\n    return n * nope\n');
    const r = await lspq.run(['diag', '--staged'], { cwd: repo });
    expect({ stdout: r.stdout, stderr: r.stderr, exit: r.exit }).toEqual({
      stdout: '',
      stderr: 'lspq: no problems in 1 file\n',
      exit: 0,
    });
    const now = await lspq.run(['diag', 'clean.py'], { cwd: repo });
    expect(now.exit).toBe(1);
    writeFileSync(join(repo, 'clean.py'), fixed);
  });

  test('--staged with nothing staged reports nothing and exits 0', async () => {
    git(repo, 'commit', '-q', '-m', 'x');
    const r = await lspq.run(['diag', '--staged'], { cwd: repo });
    expect(r.exit).toBe(0);
    expect(r.stderr).toBe('lspq: no problems in 0 files\n');
  });
});

describe('--staged: the tree a commit would hold, not the disk beside it', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyFixture('py-diag');
    scratch.push(repo);
    writeFileSync(join(repo, 'helper.py'), 'def scale(n: int) -> int:\n    return n * 2\n');
    writeFileSync(join(repo, 'main.py'), 'from helper import scale\n\nprint(scale(3))\n');
    git(repo, 'init', '-q');
    git(repo, 'add', 'helper.py', 'main.py', 'pyproject.toml');
    git(repo, 'commit', '-q', '-m', 'init');
  });
  const called = 'from helper import scale\n\nprint(scale(3, 4))\n';
  const widened = 'def scale(n: int, m: int = 1) -> int:\n    return n * m\n';

  test("a staged call against a function's committed signature fails though the unstaged one would take it", async () => {
    writeFileSync(join(repo, 'main.py'), called);
    git(repo, 'add', 'main.py');
    writeFileSync(join(repo, 'helper.py'), widened);
    const r = await lspq.run(['diag', '--staged', '--server', 'pyright'], { cwd: repo });
    expect([r.stdout, r.exit]).toEqual([
      lines('main.py:3:16: error: Expected 1 positional argument [Pyright reportCallIssue]'),
      1,
    ]);
    // The pre-commit hook's form judges the same tree.
    const since = await lspq.run(['diag', '--staged', '--since', 'HEAD', '--all', '--server', 'pyright'], {
      cwd: repo,
    });
    expect([since.stdout, since.exit]).toEqual([
      lines('main.py:3:16: error: Expected 1 positional argument [Pyright reportCallIssue]'),
      1,
    ]);
    // The work tree is the disk's again for the next question: there the call is right.
    expect(readFileSync(join(repo, 'helper.py'), 'utf8')).toBe(widened);
    const now = await lspq.run(['diag', 'main.py', '--server', 'pyright'], { cwd: repo });
    expect([now.stdout, now.exit]).toEqual(['', 0]);
  });

  test('--staged --all: every file as the commit holds it, an untracked one left out', async () => {
    writeFileSync(join(repo, 'scratch.py'), 'print(undefined_here)\n');
    const r = await lspq.json<{ files: string[]; diagnostics: { path: string; line: number }[] }>(
      ['diag', '--staged', '--all', '--server', 'pyright'],
      { cwd: repo },
    );
    expect(r.files).toEqual(['helper.py', 'main.py']);
    expect(r.diagnostics.map((d) => `${d.path}:${d.line}`)).toEqual(['main.py:3']);
    rmSync(join(repo, 'scratch.py'));
  });
});

test("--staged with rust-analyzer: its own diagnostics of the staged text; cargo check's, which read the disk, named as left out", async () => {
  const dir = scratchDir('diag-staged-rust');
  scratch.push(dir);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "staged"\nversion = "0.1.0"\nedition = "2021"\n');
  const committed = 'pub fn twice(n: i32) -> i32 {\n    n * 2\n}\n';
  writeFileSync(join(dir, 'src/lib.rs'), committed);
  writeFileSync(join(dir, 'src/main.rs'), 'mod lib;\n\nfn main() {\n    println!("{}", lib::twice(2));\n}\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  writeFileSync(join(dir, 'src/lib.rs'), 'pub fn twice(n: i32, by: i32) -> i32 {\n    n * by\n}\n');
  git(dir, 'add', 'src/lib.rs');
  writeFileSync(join(dir, 'src/lib.rs'), committed);
  const r = await lspq.run(['diag', '--staged', '--all', '--timeout', '150'], { cwd: dir });
  expect([r.stdout, r.stderr, r.exit]).toEqual([
    'src/main.rs:4:32: error: expected 2 arguments, found 1 [rust-analyzer E0107]\n',
    "lspq: 1 error in 2 files\nlspq: diagnostics are incomplete: rust-analyzer left out cargo check's diagnostics (it checks the files on disk, not text held in memory) (write the edit and ask 'lspq diag --since HEAD --all')\n",
    3,
  ]);
}, 240_000);

describe('a hostile repository', () => {
  test("plain diag runs none of the repository's programs (a clean filter here)", async () => {
    const repo = copyFixture('py-diag');
    scratch.push(repo);
    const marker = join(repo, '..', `marker-${process.pid}`);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, '.gitattributes'), '*.py filter=evil\n');
    git(repo, 'config', 'filter.evil.clean', `sh -c 'touch ${marker}; cat'`);
    git(repo, 'config', 'core.fsmonitor', `sh -c 'touch ${marker}'`);
    Bun.spawnSync(['git', '-c', 'filter.evil.clean=cat', '-c', 'core.fsmonitor=', 'add', '.'], { cwd: repo });
    Bun.spawnSync(
      [
        'git',
        '-c',
        'filter.evil.clean=cat',
        '-c',
        'core.fsmonitor=',
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@e',
        'commit',
        '-qm',
        'x',
      ],
      { cwd: repo },
    );
    writeFileSync(join(repo, 'clean.py'), 'def twice(n: int) -> int:\n    return n * 3\n');
    const r = await lspq.json(['diag'], { cwd: repo });
    expect(r.files).toEqual(['clean.py']);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('published projects: errors and warnings listed, infos and hints counted, each problem once', () => {
  test("golang.org/x/sync --all: gopls's 88 hints in one line, listed with --severity hint, judged by --fail-on", async () => {
    const xsync = xSyncAt(scratchDir('diag-xsync'));
    scratch.push(xsync);
    const r = await lspq.run(['diag', '--all'], { cwd: xsync });
    expect(r).toEqual({
      stdout: '88 hints: --severity hint to show\n',
      stderr: 'lspq: 88 hints in 17 files\n',
      exit: 0,
    });
    const json = await lspq.json(['diag', '--all'], { cwd: xsync });
    expect(json).toMatchObject({
      diagnostics: [],
      summary: { error: 0, warning: 0, info: 0, hint: 88 },
      shown: 'warning',
      hidden: { error: 0, warning: 0, info: 0, hint: 88 },
      total: 0,
      truncated: false,
    });
    const asked = await lspq.run(['diag', '--all', '--severity', 'hint'], { cwd: xsync });
    const listed = asked.stdout.split('\n').filter(Boolean);
    const anyHints = listed.filter((l) => l.endsWith(': hint: interface{} can be replaced by any [any default]'));
    expect([listed.length, anyHints.length, listed[0], asked.exit]).toEqual([
      88,
      85,
      'errgroup/errgroup_example_md5all_test.go:11:2: hint: "io/ioutil" is deprecated: Deprecated: As of Go 1.16, the same functionality is now provided by package [io] or package [os], and those implementations should be preferred in new code. See the specific function documentation for details. [deprecated default]',
      0,
    ]);
    // --fail-on judges everything found, what is not listed included.
    const failing = await lspq.run(['diag', '--all', '--fail-on', 'hint'], { cwd: xsync });
    expect([failing.stdout, failing.exit]).toEqual(['88 hints: --severity hint to show\n', 1]);
  });

  test('anyhow --all: each rustc warning once (cargo check says 9), its hints (inactive code, unlinked files) counted', async () => {
    const anyhow = anyhowAt(scratchDir('diag-anyhow'));
    scratch.push(anyhow);
    const r = await lspq.run(['diag', '--all', '--timeout', '300'], { cwd: anyhow });
    const confusing =
      "warning: hiding a lifetime that's elided elsewhere is confusing the same lifetime is referred to in inconsistent ways, making the signature confusing";
    const places = [
      'src/error.rs:919:20',
      'src/error.rs:1044:35',
      'src/error.rs:1082:14',
      'src/error.rs:1091:38',
      'src/error.rs:1098:42',
      'src/error.rs:1114:42',
      'src/ptr.rs:48:19',
      'src/ptr.rs:55:19',
    ];
    expect(r).toEqual({
      stdout: lines(
        `src/error.rs:489:18: ${confusing} \`#[warn(mismatched_lifetime_syntaxes)]\` on by default [rustc mismatched_lifetime_syntaxes]`,
        ...places.map((p) => `${p}: ${confusing} [rustc mismatched_lifetime_syntaxes]`),
        'and 78 hints: --severity hint to show',
      ),
      stderr: 'lspq: 9 warnings, 78 hints in 36 files\n',
      exit: 0,
    });
    const error = await lspq.json<{ diagnostics: { severity: string; code?: string }[] }>(
      ['diag', 'src/error.rs', '--severity', 'hint', '--timeout', '300'],
      { cwd: anyhow },
    );
    const count = (code: string, severity: string) =>
      error.diagnostics.filter((d) => d.code === code && d.severity === severity).length;
    expect([count('mismatched_lifetime_syntaxes', 'warning'), count('inactive-code', 'hint')]).toEqual([7, 30]);
  }, 400_000);
});

describe('--all', () => {
  test('every source file of the workspace, honouring .gitignore', async () => {
    const r = await lspq.json(['diag', '--all'], { cwd: join(FIXTURES, 'c-diag') });
    expect(r.files).toEqual(['broken.c', 'clean.c']);
    expect(r.summary).toEqual({ error: 1, warning: 1, info: 0, hint: 0 });
  });
});

test('rust-analyzer on a crate cargo has already checked (nothing for its check to do): answered, then an error and its revert', async () => {
  const dir = scratchDir('rust-fresh');
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "fresh"\nversion = "0.1.0"\nedition = "2021"\n');
    const MAIN = 'fn twice(n: i32) -> i32 {\n    n * 2\n}\n\nfn main() {\n    println!("{}", twice(2));\n}\n';
    writeFileSync(join(dir, 'src', 'main.rs'), MAIN);
    // As a user who has just built the project: every crate fresh, so the check lspq waits for checks nothing.
    const built = Bun.spawnSync(['cargo', 'check', '--offline', '--quiet'], { cwd: dir, env: lspq.env() });
    expect(built.exitCode).toBe(0);
    // It waited out the --timeout (exit 3) for a check that had checked something.
    const clean = await lspq.run(['diag', 'src/main.rs', '--timeout', '40'], { cwd: dir });
    expect([clean.stdout, clean.exit]).toEqual(['', 0]);
    writeFileSync(join(dir, 'src', 'main.rs'), MAIN.replace('twice(2)', 'twice("2")'));
    const broken = await lspq.run(['diag', 'src/main.rs', '--timeout', '40'], { cwd: dir });
    expect([broken.stdout.split('\n').filter((l) => l.includes(': error: ')), broken.exit]).toEqual([
      ['src/main.rs:6:26: error: mismatched types expected `i32`, found `&str` [rustc E0308]'],
      1,
    ]);
    writeFileSync(join(dir, 'src', 'main.rs'), MAIN);
    const mended = await lspq.run(['diag', 'src/main.rs', '--timeout', '40'], { cwd: dir });
    expect([mended.stdout, mended.exit]).toEqual(['', 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);
