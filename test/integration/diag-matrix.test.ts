/**
 * diag with the daemon warm, for every server that diagnoses: the first
 * call, the same call again with nothing changed, after an edit, after
 * reverting it, and several files at once mixing clean and broken. Bugs
 * live in the second call: a push server publishes nothing for a file
 * whose diagnostics did not change, and a client that waits for a fresh
 * wave then waits out its --timeout.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface Case {
  server: string;
  fixture: string;
  broken: string;
  clean: string;
  /** What the broken file reports, as printed from the fixture's folder. */
  brokenLines: string[];
  /** The clean file, edited to hold one error, and what it then reports. */
  edited: string;
  editedLines: string[];
  /** A cold server's first answer can take this long (rust-analyzer loads the standard library). */
  timeout?: string;
}

const TS_EDIT = 'export function twice(n: number): number {\n  return n * 2 + nope;\n}\n';
const PY_EDIT = 'def twice(n: int) -> int:\n    return n * 2 + nope\n';

const CASES: Case[] = [
  {
    server: 'typescript',
    fixture: 'ts-diag',
    broken: 'src/broken.ts',
    clean: 'src/clean.ts',
    brokenLines: [
      "src/broken.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]",
      "src/broken.ts:4:24: error: Cannot find name 'missing'. [ts 2304]",
    ],
    edited: TS_EDIT,
    editedLines: ["src/clean.ts:2:18: error: Cannot find name 'nope'. [ts 2304]"],
  },
  {
    server: 'typescript-language-server',
    fixture: 'ts-diag',
    broken: 'src/broken.ts',
    clean: 'src/clean.ts',
    brokenLines: [
      "src/broken.ts:1:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]",
      "src/broken.ts:4:24: error: Cannot find name 'missing'. [typescript 2304]",
    ],
    edited: TS_EDIT,
    editedLines: ["src/clean.ts:2:18: error: Cannot find name 'nope'. [typescript 2304]"],
  },
  {
    server: 'pyright',
    fixture: 'py-diag',
    broken: 'broken.py',
    clean: 'clean.py',
    brokenLines: [
      'broken.py:1:14: error: Type "Literal[\'three\']" is not assignable to declared type "int" "Literal[\'three\']" is not assignable to "int" [Pyright reportAssignmentType]',
      'broken.py:5:24: error: "missing" is not defined [Pyright reportUndefinedVariable]',
      'broken.py:8:1: warning: Expression value is unused [Pyright reportUnusedExpression]',
    ],
    edited: PY_EDIT,
    editedLines: ['clean.py:2:20: error: "nope" is not defined [Pyright reportUndefinedVariable]'],
  },
  {
    server: 'ruff',
    fixture: 'py-diag',
    broken: 'broken.py',
    clean: 'clean.py',
    brokenLines: [
      'broken.py:5:24: error: Undefined name `missing` [Ruff F821]',
      'broken.py:8:1: warning: Pointless comparison. Did you mean to assign a value? Otherwise, prepend `assert` or remove it. [Ruff B015]',
    ],
    edited: PY_EDIT,
    editedLines: ['clean.py:2:20: error: Undefined name `nope` [Ruff F821]'],
  },
  {
    server: 'pylsp',
    fixture: 'py-diag',
    broken: 'broken.py',
    clean: 'clean.py',
    brokenLines: ["broken.py:5:24: error: undefined name 'missing' [pyflakes]"],
    edited: PY_EDIT,
    editedLines: ["clean.py:2:20: error: undefined name 'nope' [pyflakes]"],
  },
  {
    server: 'gopls',
    fixture: 'go-diag',
    broken: 'broken.go',
    clean: 'clean.go',
    brokenLines: [
      'broken.go:5:17: error: cannot use "three" (untyped string constant) as int value in variable declaration [compiler IncompatibleAssign]',
      'broken.go:9:21: error: undefined: missing [compiler UndeclaredName]',
    ],
    edited: 'package diag\n\nfunc Twice(n int) int {\n\treturn n * 2 + nope\n}\n',
    editedLines: ['clean.go:4:17: error: undefined: nope [compiler UndeclaredName]'],
  },
  {
    server: 'clangd',
    fixture: 'c-diag',
    broken: 'broken.c',
    clean: 'clean.c',
    brokenLines: [
      "broken.c:3:9: error: Use of undeclared identifier 'missing' [clang undeclared_var_use]",
      "broken.c:8:6: warning: Unused variable 'unused' [clang -Wunused-variable]",
    ],
    edited: 'int twice(int n)\n{\n\treturn n * 2 + nope;\n}\n',
    editedLines: ["clean.c:3:17: error: Use of undeclared identifier 'nope' [clang undeclared_var_use]"],
  },
  {
    server: 'rust-analyzer',
    fixture: 'rust-diag',
    broken: 'src/broken.rs',
    clean: 'src/clean.rs',
    // cargo check's, run on save: rust-analyzer's own diagnostics miss the undeclared `missing`.
    brokenLines: [
      'src/broken.rs:1:24: error: mismatched types expected `i32`, found `&str` [rustc E0308]',
      'src/broken.rs:4:25: error: cannot find value `missing` in this scope not found in this scope [rustc E0425]',
    ],
    edited: 'pub fn twice(n: i32) -> i32 {\n    let s: i32 = "x";\n    n * 2 + s\n}\n',
    editedLines: [
      'src/clean.rs:2:12: hint: expected due to this [rustc E0308]',
      'src/clean.rs:2:18: error: mismatched types expected `i32`, found `&str` [rustc E0308]',
    ],
    timeout: '120',
  },
];

const output = (lines: string[]) => lines.map((l) => `${l}\n`).join('');

for (const c of CASES) {
  describe(`${c.server}, daemon warm`, () => {
    const dir = copyFixture(c.fixture);
    scratch.push(dir);
    const original = readFileSync(join(dir, c.clean), 'utf8');
    // Every severity: the matrix holds each server's whole answer, hints included.
    const diag = (...files: string[]) =>
      lspq.run(['diag', ...files, '--server', c.server, '--severity', 'hint', '--timeout', c.timeout ?? '60'], {
        cwd: dir,
      });
    const expectAnswer = async (files: string[], lines: string[], summary: string) => {
      const r = await diag(...files);
      expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: output(lines), stderr: `lspq: ${summary}\n` });
      expect(r.exit).toBe(lines.some((l) => l.includes(': error: ')) ? 1 : 0);
    };
    /** The summary line of these diagnostics in `files` files, as diag prints it. */
    const summaryOf = (lines: string[], files: number) => {
      const counts = (['error', 'warning', 'info', 'hint'] as const)
        .map((s) => [s, lines.filter((l) => l.includes(`: ${s}: `)).length] as const)
        .filter(([, n]) => n > 0)
        .map(([s, n]) => `${n} ${s}${n === 1 ? '' : 's'}`);
      return `${counts.join(', ') || 'no problems'} in ${files} file${files === 1 ? '' : 's'}`;
    };
    const brokenSummary = (files: number) => summaryOf(c.brokenLines, files);

    test('first call: the clean file alone', async () => {
      await expectAnswer([c.clean], [], 'no problems in 1 file');
    });

    test('the same call again, nothing changed', async () => {
      await expectAnswer([c.clean], [], 'no problems in 1 file');
    });

    test('several files at once, broken and clean', async () => {
      await expectAnswer([c.broken, c.clean], c.brokenLines, brokenSummary(2));
    });

    test('the same files again, nothing changed', async () => {
      await expectAnswer([c.broken, c.clean], c.brokenLines, brokenSummary(2));
    });

    test('after an edit that breaks the clean file', async () => {
      writeFileSync(join(dir, c.clean), c.edited);
      const lines = [...c.brokenLines, ...c.editedLines].sort(byPath);
      await expectAnswer([c.broken, c.clean], lines, summaryOf(lines, 2));
    });

    test('after reverting the edit', async () => {
      writeFileSync(join(dir, c.clean), original);
      await expectAnswer([c.clean], [], 'no problems in 1 file');
      await expectAnswer([c.broken, c.clean], c.brokenLines, brokenSummary(2));
    });
  });
}

/** diag's order: by path, then line. */
function byPath(a: string, b: string): number {
  const [pa = '', la = '0'] = a.split(':');
  const [pb = '', lb = '0'] = b.split(':');
  return pa < pb ? -1 : pa > pb ? 1 : Number(la) - Number(lb);
}
