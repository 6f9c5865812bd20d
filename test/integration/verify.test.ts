/**
 * --verify: an edit that introduces an error is put back, byte for byte,
 * and the errors are printed (exit 1); one that introduces none stays. A
 * rename that captures another name (TypeScript, Python), one that makes
 * a duplicate method in query-core, and a code action whose edit does not
 * compile (a fake server's action on a TypeScript file, checked by
 * TypeScript 7). A dry run's patch stays on stdout, the errors it would
 * introduce listed on stderr as diag prints them.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fakeProject, FIXTURES, git, Lspq, REPO, scratchDir } from '../helpers/lspq';
import { queryCoreAt } from '../helpers/published';

const lspq = new Lspq();
mkdirSync(join(REPO, 'test', '.scratch'), { recursive: true });
const base = mkdtempSync(join(REPO, 'test', '.scratch', 'verify-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

const TS =
  'const util = { double: (x: number) => x * 2 };\n\nexport function run(value: number): number {\n  return util.double(value);\n}\n';
const TSCONFIG = '{ "compilerOptions": { "strict": true, "noEmit": true } }\n';

describe('rename --verify', () => {
  test('TypeScript: a parameter renamed onto the object it calls is put back, its error printed', async () => {
    const dir = project('ts-rename', { 'tsconfig.json': TSCONFIG, 'main.ts': TS });
    const r = await lspq.run(['rename', 'main.ts:3:value', 'util', '--verify'], { cwd: dir });
    expect(r).toEqual({
      exit: 1,
      stdout: "main.ts:4:15: error: Property 'double' does not exist on type 'number'. [ts 2339]\n",
      stderr: "lspq: the rename to 'util' introduced 1 error; every file was put back as it was\n",
    });
    expect(read(dir, 'main.ts')).toBe(TS);
    // The same rename without --verify is written: the error is real.
    expect((await lspq.run(['rename', 'main.ts:3:value', 'util'], { cwd: dir })).exit).toBe(0);
    expect(read(dir, 'main.ts')).toContain('return util.double(util);');
    writeFileSync(join(dir, 'main.ts'), TS);
  });

  test('TypeScript: a rename that breaks nothing stays, and says it was verified', async () => {
    const dir = join(base, 'ts-rename');
    const r = await lspq.run(['rename', 'main.ts:3:value', 'amount', '--verify'], { cwd: dir });
    expect(r).toEqual({
      exit: 0,
      stdout: 'main.ts: 2 edits\n',
      stderr: "lspq: renamed to 'amount': 2 edits in 1 file; verified: it introduced no error\n",
    });
    expect(read(dir, 'main.ts')).toBe(TS.replaceAll('value', 'amount'));
  });

  test('Python: a parameter renamed onto a module it uses is put back', async () => {
    const text = 'import os\n\n\ndef under(path: str) -> str:\n    return os.path.join(path, "x")\n';
    const dir = project('py-rename', { 'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n', 'main.py': text });
    const r = await lspq.run(['rename', 'main.py:4:path', 'os', '--verify', '--server', 'pyright'], { cwd: dir });
    expect(r.exit).toBe(1);
    expect(r.stdout).toBe(
      'main.py:5:15: error: Cannot access attribute "path" for class "str" Attribute "path" is unknown [Pyright reportAttributeAccessIssue]\n',
    );
    expect(r.stderr).toBe("lspq: the rename to 'os' introduced 1 error; every file was put back as it was\n");
    expect(read(dir, 'main.py')).toBe(text);
  });

  test('--dry-run --verify: the error the rename would introduce, checked in memory, listed under its patch; nothing written', async () => {
    const dir = join(base, 'ts-rename');
    writeFileSync(join(dir, 'main.ts'), TS);
    const patch = (await lspq.run(['rename', 'main.ts:3:value', 'util', '--dry-run'], { cwd: dir })).stdout;
    expect(patch).toContain('+export function run(util: number): number {\n');
    for (let i = 0; i < 2; i++) {
      const r = await lspq.run(['rename', 'main.ts:3:value', 'util', '--dry-run', '--verify'], { cwd: dir });
      expect(r).toEqual({
        exit: 1,
        stdout: patch,
        stderr:
          "lspq: the rename to 'util' would introduce 1 error; nothing was written:\nmain.ts:4:15: error: Property 'double' does not exist on type 'number'. [ts 2339]\n",
      });
      expect(read(dir, 'main.ts')).toBe(TS);
    }
    const json = await lspq.json<{ applied: boolean; verification: { reverted: boolean; written: boolean } }>(
      ['rename', 'main.ts:3:value', 'util', '--dry-run', '--verify'],
      { cwd: dir },
    );
    expect([json.applied, json.verification.reverted, json.verification.written]).toEqual([false, false, false]);
    // The servers hold the disk's text again: the file is clean.
    expect((await lspq.run(['diag', 'main.ts'], { cwd: dir })).exit).toBe(0);
  });

  test('--dry-run --verify of a rename that breaks nothing: its diff, and the word that it would introduce no error', async () => {
    const dir = join(base, 'ts-rename');
    const r = await lspq.run(['rename', 'main.ts:3:value', 'amount', '--dry-run', '--verify'], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('+export function run(amount: number): number {');
    expect(r.stderr).toBe(
      "lspq: the rename to 'amount'; verified in memory: it would introduce no error; nothing written\n",
    );
    expect(read(dir, 'main.ts')).toBe(TS);
  });

  test('Python: --dry-run --verify of a parameter renamed onto a module it uses', async () => {
    const dir = join(base, 'py-rename');
    const text = read(dir, 'main.py');
    const r = await lspq.run(['rename', 'main.py:4:path', 'os', '--dry-run', '--verify', '--server', 'pyright'], {
      cwd: dir,
    });
    expect(r).toEqual({
      exit: 1,
      stdout: (await lspq.run(['rename', 'main.py:4:path', 'os', '--dry-run', '--server', 'pyright'], { cwd: dir }))
        .stdout,
      stderr:
        'lspq: the rename to \'os\' would introduce 1 error; nothing was written:\nmain.py:5:15: error: Cannot access attribute "path" for class "str" Attribute "path" is unknown [Pyright reportAttributeAccessIssue]\n',
    });
    expect(r.stdout).toContain('+def under(os: str) -> str:\n');
    expect(read(dir, 'main.py')).toBe(text);
  });

  test('query-core (TypeScript 7): a method renamed onto another of its class; the patch on stdout git applies, the two errors listed on stderr', async () => {
    const dir = queryCoreAt(scratchDir('verify-query-core'));
    try {
      const args = ['rename', 'src/removable.ts:53:clearGcTimeout', 'scheduleGc', '--dry-run'];
      const plain = await lspq.run(args, { cwd: dir });
      const r = await lspq.run([...args, '--verify'], { cwd: dir });
      expect(r).toEqual({
        exit: 1,
        stdout: plain.stdout,
        stderr: [
          "lspq: the rename to 'scheduleGc' would introduce 2 errors; nothing was written:",
          'src/removable.ts:27:13: error: Duplicate function implementation. [ts 2393]',
          'src/removable.ts:53:13: error: Duplicate function implementation. [ts 2393]',
          '',
        ].join('\n'),
      });
      expect(r.stdout.split('\n').filter((l) => l.startsWith('diff --git'))).toEqual([
        'diff --git a/src/mutation.ts b/src/mutation.ts',
        'diff --git a/src/query.ts b/src/query.ts',
        'diff --git a/src/removable.ts b/src/removable.ts',
      ]);
      writeFileSync(join(dir, '..', 'verify-query-core.patch'), r.stdout);
      git(dir, 'apply', '--check', join(dir, '..', 'verify-query-core.patch'));
      expect(git(dir, 'status', '--porcelain')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(join(dir, '..', 'verify-query-core.patch'), { force: true });
    }
  });
});

describe('mv --dry-run --verify', () => {
  test('TypeScript 7: a move without updating its importer breaks it (--verify-all finds the caller), nothing moved', async () => {
    const dir = project('ts-move', {
      'tsconfig.json': TSCONFIG,
      'lib.ts': 'export const one = 1;\n',
      'main.ts': "import { one } from './lib';\n\nexport const two = one + 1;\n",
    });
    const r = await lspq.run(['mv', 'lib.ts', 'moved.ts', '--no-update', '--dry-run', '--verify-all'], { cwd: dir });
    // The folder lies in the suite's own checkout: the patch's paths are written from its top.
    const at = relative(REPO, dir);
    expect(r).toEqual({
      exit: 1,
      stdout: `diff --git a/${at}/lib.ts b/${at}/moved.ts\nrename from ${at}/lib.ts\nrename to ${at}/moved.ts\n`,
      stderr:
        "lspq: the move of lib.ts -> moved.ts would introduce 1 error; nothing was written:\nmain.ts:1:21: error: Cannot find module './lib' or its corresponding type declarations. [ts 2307]\n",
    });
    expect([read(dir, 'lib.ts'), existsSync(join(dir, 'moved.ts'))]).toEqual(['export const one = 1;\n', false]);
    // Moved with its importer updated, the same check finds nothing.
    const updated = await lspq.run(['mv', 'lib.ts', 'moved.ts', '--dry-run', '--verify-all'], { cwd: dir });
    expect([updated.exit, updated.stderr]).toEqual([
      0,
      'lspq: would move lib.ts -> moved.ts; 1 edit in 1 file; verified in memory: it would introduce no error; nothing written\n',
    ]);
    expect((await lspq.run(['diag', 'main.ts', 'lib.ts'], { cwd: dir })).exit).toBe(0);
  });
});

describe('actions --apply --verify', () => {
  test('an action whose edit does not compile is put back, byte for byte', async () => {
    const fake = {
      command: process.execPath,
      args: [join(REPO, 'test', 'fakes', 'well-behaved.ts'), '--cancel-marker', join(base, 'cancelled')],
      extensionToLanguage: { '.ts': 'typescript' },
    };
    const dir = project('ts-action', {
      'tsconfig.json': TSCONFIG,
      'main.ts': TS,
      '.lsp.json': JSON.stringify({ fake }),
    });
    const r = await lspq.run(['actions', 'main.ts:1', '--server', 'fake', '--apply', '1', '--verify'], { cwd: dir });
    expect(r.exit).toBe(1);
    expect(r.stdout).toBe(
      [
        'main.ts:1:1: error: Unexpected keyword or identifier. [ts 1434]',
        "main.ts:1:1: error: Cannot find name 'fixed'. [ts 2304]",
        "main.ts:1:7: error: Cannot find name 'util'. [ts 2304]",
        "main.ts:4:10: error: Cannot find name 'util'. [ts 2304]",
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe(
      "lspq: code action 1 ('Fix it by command') introduced 4 errors; every file was put back as it was\n",
    );
    expect(read(dir, 'main.ts')).toBe(TS);
  });

  test('--dry-run --verify: the same errors, said of the dry run; the file never written', async () => {
    const dir = join(base, 'ts-action');
    const r = await lspq.run(['actions', 'main.ts:1', '--server', 'fake', '--apply', '1', '--dry-run', '--verify'], {
      cwd: dir,
    });
    expect(r.exit).toBe(1);
    // Its patch on stdout, as the same dry run without --verify prints it; the errors under its word.
    const plain = await lspq.run(['actions', 'main.ts:1', '--server', 'fake', '--apply', '1', '--dry-run'], {
      cwd: dir,
    });
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stdout).toContain(
      '-const util = { double: (x: number) => x * 2 };\n+fixed util = { double: (x: number) => x * 2 };\n',
    );
    expect(r.stderr).toBe(
      [
        "lspq: code action 1 ('Fix it by command') would introduce 4 errors; nothing was written:",
        'main.ts:1:1: error: Unexpected keyword or identifier. [ts 1434]',
        "main.ts:1:1: error: Cannot find name 'fixed'. [ts 2304]",
        "main.ts:1:7: error: Cannot find name 'util'. [ts 2304]",
        "main.ts:4:10: error: Cannot find name 'util'. [ts 2304]",
        '',
      ].join('\n'),
    );
    expect(read(dir, 'main.ts')).toBe(TS);
  });
});

test('--verify whose diagnostics do not come in time: the edit is kept, said not verified, exit 3 (it said "verified")', async () => {
  const dir = fakeProject('verify-hangs', 'hangs-on-diagnostics');
  try {
    const r = await lspq.run(['rename', 'a.fake:1:hello', 'howdy', '--verify', '--timeout', '3'], { cwd: dir });
    expect([r.exit, r.stdout]).toEqual([3, 'a.fake: 1 edit\nb.fake: 1 edit\n']);
    expect(r.stderr).toBe(
      "lspq: renamed to 'howdy': 2 edits in 2 files; not verified: the diagnostics of a.fake, b.fake cannot be compared (a server did not finish in time, or its check reads the disk and has errors there: rust-analyzer's cargo check); kept as written, 'lspq diag' them\n",
    );
    expect([read(dir, 'a.fake'), read(dir, 'b.fake')]).toEqual(['howdy a\n', 'howdy b\n']);
    const json = await lspq.json<{ verification: unknown }>(
      ['rename', 'a.fake:1:howdy', 'hello', '--verify', '--timeout', '3'],
      { cwd: dir },
    );
    expect(json.verification).toEqual({ introduced: [], reverted: false, incomplete: ['a.fake', 'b.fake'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--verify on Rust where cargo check finds errors in the edited files: not verified, exit 3 (it said 'verified')", async () => {
  const dir = project('rust-broken', {});
  try {
    cpSync(join(FIXTURES, 'rust-diag'), dir, { recursive: true });
    const r = await lspq.run(['rename', 'src/broken.rs:3:size', 'length', '--verify'], { cwd: dir });
    expect([r.exit, r.stdout]).toEqual([3, 'src/broken.rs: 1 edit\nsrc/main.rs: 1 edit\n']);
    expect(r.stderr).toContain('not verified: the diagnostics of src/broken.rs cannot be compared');
    expect(read(dir, 'src/main.rs')).toContain('broken::length("x")');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
