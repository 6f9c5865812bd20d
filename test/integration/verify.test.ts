/**
 * --verify: an edit that introduces an error is put back, byte for byte,
 * and the errors are printed (exit 1); one that introduces none stays. A
 * rename that captures another name (TypeScript, Python) and a code action
 * whose edit does not compile (a fake server's action on a TypeScript
 * file, checked by TypeScript 7).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeProject, FIXTURES, Lspq, REPO } from '../helpers/lspq';

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

  test('--verify with --dry-run is bad input', async () => {
    const r = await lspq.run(['rename', 'main.ts:3:value', 'x', '--verify', '--dry-run'], {
      cwd: join(base, 'ts-rename'),
    });
    expect(r).toEqual({
      exit: 2,
      stdout: '',
      stderr: 'lspq: --verify checks what was written; drop --dry-run (or --verify)\n',
    });
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
