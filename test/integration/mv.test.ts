/**
 * lspq mv: a file or a folder moves and what imports it follows, all or
 * nothing, on TypeScript (both servers) and Rust, checked by the
 * languages' own compilers; moved back, the tree is byte for byte what it
 * was. A dry run writes nothing, and prints a patch that git applies (to
 * the tree the move makes) and diag --patch checks, on query-core; a
 * failure in the middle leaves the tree as it was; a server that cannot
 * update imports moves nothing unless told --no-update; one that refuses
 * the move is quoted whole.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { copyFixture, fakeProject, FIXTURES, git, Lspq, REPO, scratchDir } from '../helpers/lspq';
import { queryCoreAt } from '../helpers/published';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

function copy(name: string): string {
  const dir = copyFixture(name);
  scratch.push(dir);
  return dir;
}

/** Every file under `dir` with its text (build output left out), to compare whole trees. */
function tree(dir: string, skip = ['target', 'node_modules']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (skip.includes(e.name)) continue;
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function check(dir: string, argv: string[]): { exit: number; output: string } {
  const r = Bun.spawnSync(argv, { cwd: dir, env: lspq.env(), stdin: 'ignore' });
  return { exit: r.exitCode, output: `${r.stdout.toString()}${r.stderr.toString()}` };
}
const tsc = (dir: string) => check(dir, [join(REPO, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', '.']);

/** ts-shapes with a second folder importing circle.ts, so a move has importers outside the folder too. */
function tsProject(): string {
  const dir = copy('ts-shapes');
  mkdirSync(join(dir, 'app'));
  writeFileSync(
    join(dir, 'app', 'use.ts'),
    "import { Circle } from '../src/circle';\nimport { totalArea } from '../src/geometry';\n\nexport const area = totalArea([new Circle(1)], 'cm');\n",
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    readFileSync(join(dir, 'tsconfig.json'), 'utf8').replace('["src"]', '["src", "app"]'),
  );
  return dir;
}

const changedLines = (stdout: string) => stdout.split('\n').filter((l) => /^[-+][^-+]/.test(l));

describe.each(['typescript', 'typescript-language-server'])('TypeScript, %s', (server) => {
  const dir = tsProject();
  const original = tree(dir);
  const on = ['--server', server];

  test('a dry run shows the edits and the move, and writes nothing', async () => {
    const r = await lspq.run(['mv', 'src/circle.ts', 'src/shapes/circle.ts', '--dry-run', ...on], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(changedLines(r.stdout)).toEqual([
      "-import { Circle } from '../src/circle';",
      "+import { Circle } from '../src/shapes/circle';",
      "-import { Circle } from './circle';",
      "+import { Circle } from './shapes/circle';",
      "-import type { Shape } from './shape';",
      "+import type { Shape } from '../shape';",
    ]);
    expect(r.stderr).toBe('lspq: would move src/circle.ts -> src/shapes/circle.ts; 3 edits in 3 files\n');
    expect(tree(dir)).toEqual(original);
  });

  test('a file imported from two folders moves; tsc passes; moved back, the tree is as it was', async () => {
    const r = await lspq.run(['mv', 'src/circle.ts', 'src/shapes/circle.ts', ...on], { cwd: dir });
    expect(r).toEqual({
      exit: 0,
      stdout: 'app/use.ts: 1 edit\nsrc/main.ts: 1 edit\nsrc/shapes/circle.ts: 1 edit\n',
      stderr: 'lspq: moved src/circle.ts -> src/shapes/circle.ts; 3 edits in 3 files\n',
    });
    expect(existsSync(join(dir, 'src', 'circle.ts'))).toBe(false);
    expect(tsc(dir)).toEqual({ exit: 0, output: '' });
    const back = await lspq.run(['mv', 'src/shapes/circle.ts', 'src/circle.ts', ...on], { cwd: dir });
    expect(back.exit).toBe(0);
    rmSync(join(dir, 'src', 'shapes'), { recursive: true }); // mv leaves the emptied folder, as mv(1) does
    expect(tree(dir)).toEqual(original);
  });

  test('a folder moves; tsc passes; and back', async () => {
    const r = await lspq.run(['mv', 'src', 'lib', ...on], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(r.stderr).toBe('lspq: moved src -> lib; 3 edits in 2 files\n');
    expect(readFileSync(join(dir, 'app', 'use.ts'), 'utf8')).toStartWith(
      "import { Circle } from '../lib/circle';\nimport { totalArea } from '../lib/geometry';\n",
    );
    expect(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).toContain('"include": ["lib", "app"]');
    expect(tsc(dir)).toEqual({ exit: 0, output: '' });
    expect((await lspq.run(['mv', 'lib', 'src', ...on], { cwd: dir })).exit).toBe(0);
    expect(tree(dir)).toEqual(original);
  });

  test('--verify: a move whose edits break nothing stays, and says so; and back', async () => {
    const r = await lspq.run(['mv', 'src/square.ts', 'src/shapes/square.ts', '--verify', ...on], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(r.stderr).toBe(
      'lspq: moved src/square.ts -> src/shapes/square.ts; 2 edits in 2 files; verified: it introduced no error\n',
    );
    expect(tsc(dir)).toEqual({ exit: 0, output: '' });
    expect((await lspq.run(['mv', 'src/shapes/square.ts', 'src/square.ts', ...on], { cwd: dir })).exit).toBe(0);
    rmSync(join(dir, 'src', 'shapes'), { recursive: true });
    expect(tree(dir)).toEqual(original);
  });

  test('a file that cannot be written in the middle: exit 3, the tree as it was', async () => {
    chmodSync(join(dir, 'src', 'main.ts'), 0o444);
    const r = await lspq.run(['mv', 'src/circle.ts', 'src/round.ts', ...on], { cwd: dir });
    chmodSync(join(dir, 'src', 'main.ts'), 0o644);
    expect(r.exit).toBe(3);
    expect(r.stderr).toStartWith('lspq: could not write ');
    expect(tree(dir)).toEqual(original);
  });
});

describe('a file moved forth and back many times in a row', () => {
  test.each(['typescript', 'typescript-language-server'])(
    '%s: every move updates its importers (a project file remembered from before a move had gone: exit 2)',
    async (server) => {
      const dir = copy('ts-shapes');
      mkdirSync(join(dir, 'src', 'barrel'));
      const original = tree(dir);
      const counts: string[] = [];
      for (let i = 0; i < 15; i++) {
        for (const [a, b] of [
          ['src/circle.ts', 'src/barrel/circle.ts'],
          ['src/barrel/circle.ts', 'src/circle.ts'],
        ]) {
          const r = await lspq.json<{ applied: boolean; files: unknown[] }>(['mv', a!, b!, '--server', server], {
            cwd: dir,
          });
          counts.push(`${r.applied}:${r.files?.length}`);
        }
      }
      expect(counts).toEqual(Array(30).fill('true:2'));
      expect(tree(dir)).toEqual(original);
    },
  );
});

/** lspq with `input` on its stdin (a patch for diag --patch -). */
/** lspq with `input` on its stdin. */
const piped = (args: string[], cwd: string, input: string) => lspq.run(args, { cwd, stdin: input });

/** A patch's lines that are not its hunks' (the headers of each file). */
const headers = (patch: string) =>
  patch.split('\n').filter((l) => /^(diff --git|rename |new file|deleted file|---|\+\+\+)/.test(l));

describe('--dry-run prints a patch: git apply makes the tree the move makes, diag --patch checks it (query-core, TypeScript 7)', () => {
  const dir = queryCoreAt(scratchDir('mv-query-core'));
  scratch.push(dir);
  const src = join(dir, 'src');
  const files = () => tree(dir, ['target', 'node_modules', '.git']);
  const original = files();
  /** The tree `patch` makes when git applies it where the user asked, put back after. */
  const applied = (patch: string, cwd: string) => {
    writeFileSync(join(dir, '..', 'mv-query-core.patch'), patch);
    git(cwd, 'apply', join(dir, '..', 'mv-query-core.patch'));
    const made = files();
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'clean', '-qfd');
    rmSync(join(dir, '..', 'mv-query-core.patch'));
    return made;
  };
  /** The tree lspq mv itself makes, put back after. */
  const moved = async (args: string[], cwd: string) => {
    expect((await lspq.run(['mv', ...args], { cwd })).exit).toBe(0);
    const made = files();
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'clean', '-qfd');
    return made;
  };

  test("a file, from the folder it is in: git's paths from the top, the move a rename with its edits; checked by diag --patch", async () => {
    const r = await lspq.run(['mv', 'removable.ts', 'gc.ts', '--dry-run'], { cwd: src });
    expect([r.exit, r.stderr]).toEqual([0, 'lspq: would move removable.ts -> gc.ts; 2 edits in 2 files\n']);
    // In git's order: by where each file is after the patch.
    expect(headers(r.stdout)).toEqual([
      'diff --git a/src/removable.ts b/src/gc.ts',
      'rename from src/removable.ts',
      'rename to src/gc.ts',
      'diff --git a/src/mutation.ts b/src/mutation.ts',
      '--- a/src/mutation.ts',
      '+++ b/src/mutation.ts',
      'diff --git a/src/query.ts b/src/query.ts',
      '--- a/src/query.ts',
      '+++ b/src/query.ts',
    ]);
    expect(r.stdout.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual([
      "-import { Removable } from './removable'",
      "+import { Removable } from './gc'",
      "-import { Removable } from './removable'",
      "+import { Removable } from './gc'",
    ]);
    expect(files()).toEqual(original);
    expect(await piped(['diag', '--patch', '-'], src, r.stdout)).toEqual({
      exit: 0,
      stdout: '',
      stderr:
        'lspq: nothing new with the patch (3 files touched) in 18 files; 22 problems already there, not counted\n',
    });
    expect(applied(r.stdout, src)).toEqual(await moved(['removable.ts', 'gc.ts'], src));
  });

  test('into a new folder: the moved file renamed with its own imports edited; TypeScript 7 cannot be shown a file in a folder not on disk (exit 3)', async () => {
    const r = await lspq.run(['mv', 'src/removable.ts', 'src/core/removable.ts', '--dry-run'], { cwd: dir });
    expect([r.exit, r.stderr]).toEqual([
      0,
      'lspq: would move src/removable.ts -> src/core/removable.ts; 6 edits in 3 files\n',
    ]);
    expect(headers(r.stdout).slice(0, 5)).toEqual([
      'diff --git a/src/removable.ts b/src/core/removable.ts',
      'rename from src/removable.ts',
      'rename to src/core/removable.ts',
      '--- a/src/removable.ts',
      '+++ b/src/core/removable.ts',
    ]);
    expect(await piped(['diag', '--patch', '-'], dir, r.stdout)).toEqual({
      exit: 3,
      stdout: '',
      stderr:
        "lspq: typescript reads src/core/removable.ts from the disk: it cannot be shown a file in a folder that is not on disk without writing it; write the edit and ask 'lspq diag --since HEAD --all'\n",
    });
    expect(applied(r.stdout, dir)).toEqual(await moved(['src/removable.ts', 'src/core/removable.ts'], dir));
  });

  test('a folder: every file it carries renamed, most without a hunk, and the tsconfig that names it edited', async () => {
    const r = await lspq.run(['mv', 'src', 'lib', '--dry-run'], { cwd: dir });
    expect([r.exit, r.stderr]).toEqual([0, 'lspq: would move src -> lib; 1 edit in 1 file\n']);
    const carried = Object.keys(original)
      .filter((f) => f.startsWith('src/'))
      .sort();
    expect(headers(r.stdout)).toEqual([
      ...carried.flatMap((f) => [
        `diff --git a/${f} b/lib/${f.slice(4)}`,
        `rename from ${f}`,
        `rename to lib/${f.slice(4)}`,
      ]),
      'diff --git a/tsconfig.json b/tsconfig.json',
      '--- a/tsconfig.json',
      '+++ b/tsconfig.json',
    ]);
    expect(applied(r.stdout, dir)).toEqual(await moved(['src', 'lib'], dir));
  });
});

describe('Rust (rust-analyzer)', () => {
  test('a module file renamed: its mod and use lines follow; cargo check passes; and back', async () => {
    const dir = join(REPO, 'test', '.scratch', `mv-rust-${process.pid}`);
    scratch.push(dir);
    mkdirSync(dir, { recursive: true });
    for (const f of ['Cargo.toml', 'Cargo.lock', 'src'])
      cpSync(join(FIXTURES, 'rust-shapes', f), join(dir, f), { recursive: true });
    const original = tree(dir);
    const r = await lspq.run(['mv', 'src/shape.rs', 'src/form.rs'], { cwd: dir });
    expect(r).toEqual({
      exit: 0,
      stdout: 'src/circle.rs: 1 edit\nsrc/geometry.rs: 1 edit\nsrc/main.rs: 2 edits\nsrc/square.rs: 1 edit\n',
      stderr: 'lspq: moved src/shape.rs -> src/form.rs; 5 edits in 4 files\n',
    });
    expect(readFileSync(join(dir, 'src', 'main.rs'), 'utf8')).toContain('mod form;\n');
    expect(check(dir, ['cargo', 'check', '-q', '--offline']).exit).toBe(0);
    expect((await lspq.run(['mv', 'src/form.rs', 'src/shape.rs'], { cwd: dir })).exit).toBe(0);
    expect(tree(dir)).toEqual(original);
  });
});

describe('a server that refuses the move', () => {
  test('its whole reason in one line, its stack trace left out; text and JSON; nothing moved', async () => {
    const dir = fakeProject('mv-refusal', 'refuses-with-a-stack');
    scratch.push(dir);
    const message =
      "fake failed workspace/willRenameFiles: renaming \"hello\" would break b.fake; b.fake:1:1: it is imported there as hello; (rename b.fake's import with it); see 'lspq daemon logs'";
    expect(await lspq.run(['mv', 'a.fake', 'c.fake'], { cwd: dir })).toEqual({
      exit: 3,
      stdout: '',
      stderr: `lspq: ${message}\n`,
    });
    expect(await lspq.json(['mv', 'a.fake', 'c.fake', '--dry-run'], { cwd: dir })).toEqual({
      error: { code: 'server_failed', message },
    });
    expect([existsSync(join(dir, 'a.fake')), existsSync(join(dir, 'c.fake'))]).toEqual([true, false]);
  });
});

describe('bad moves and servers that cannot update', () => {
  const dir = tsProject();
  const original = tree(dir);

  test('onto a file that exists: exit 2, nothing changed', async () => {
    const r = await lspq.run(['mv', 'src/circle.ts', 'src/square.ts'], { cwd: dir });
    expect(r).toEqual({
      exit: 2,
      stdout: '',
      stderr: 'lspq: src/square.ts exists; nothing was moved (name a path that does not exist)\n',
    });
    expect(tree(dir)).toEqual(original);
  });

  test('outside the workspace root: exit 2 unless --allow-outside', async () => {
    const r = await lspq.run(['mv', 'src/circle.ts', '../outside-circle.ts', '--dry-run'], { cwd: dir });
    expect(r.exit).toBe(2);
    expect(r.stderr).toContain('outside the workspace root');
    expect(r.stderr).toContain('--allow-outside');
    expect(tree(dir)).toEqual(original);
  });

  test('a missing OLD is exit 2', async () => {
    const r = await lspq.run(['mv', 'src/nothing.ts', 'src/x.ts'], { cwd: dir });
    expect(r).toEqual({ exit: 2, stdout: '', stderr: 'lspq: src/nothing.ts: no such file or folder\n' });
  });

  test('gopls cannot update imports: exit 3 naming --no-update, nothing moved; --no-update moves it', async () => {
    const go = copy('go-shapes');
    const before = tree(go);
    const r = await lspq.run(['mv', 'circle.go', 'round.go'], { cwd: go });
    expect(r).toEqual({
      exit: 3,
      stdout: '',
      stderr:
        "lspq: gopls cannot update what imports circle.go; nothing was moved (--no-update moves it alone; 'lspq servers --for FILE' lists what each server can answer)\n",
    });
    expect(tree(go)).toEqual(before);
    const moved = await lspq.run(['mv', 'circle.go', 'round.go', '--no-update'], { cwd: go });
    expect(moved).toEqual({ exit: 0, stdout: '', stderr: 'lspq: moved circle.go -> round.go\n' });
    expect(readFileSync(join(go, 'round.go'), 'utf8')).toBe(before['circle.go']!);
    expect(existsSync(join(go, 'circle.go'))).toBe(false);
  });

  test('a folder of two languages, one no server can update: exit 3 naming those files, nothing moved; --no-update moves it', async () => {
    const mixed = tsProject();
    writeFileSync(join(mixed, 'src', 'tool.py'), 'def shape_count():\n    return 2\n');
    writeFileSync(join(mixed, 'run.py'), 'from src.tool import shape_count\n\nprint(shape_count())\n');
    writeFileSync(join(mixed, 'src', 'data.json'), '{"shapes": 2}\n');
    const before = tree(mixed);
    for (let i = 0; i < 2; i++) {
      const r = await lspq.run(['mv', 'src', 'lib'], { cwd: mixed });
      expect(r).toEqual({
        exit: 3,
        stdout: '',
        stderr:
          "lspq: what imports src/tool.py (python: pyright, ruff cannot update what imports them) would not be updated; nothing was moved (--no-update moves it alone; 'lspq servers --for FILE' lists what each server can answer)\n",
      });
      expect(tree(mixed)).toEqual(before);
    }
    const moved = await lspq.run(['mv', 'src', 'lib', '--no-update'], { cwd: mixed });
    expect([moved.exit, moved.stderr]).toEqual([0, 'lspq: moved src -> lib\n']);
    expect(existsSync(join(mixed, 'lib', 'tool.py'))).toBe(true);
  });
});
