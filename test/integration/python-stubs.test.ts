/**
 * A Python stub and its implementation answer as one symbol, with pyright
 * and basedpyright: refs (and impls) are the same set asked at the
 * implementation, at the stub and at a use; a rename asked at the
 * implementation renames the stub and what resolves through it too, so
 * the code still imports and runs; mv moves a module with its stub. On
 * test/fixtures/py-stubs (a module beside its stub, a package whose stub
 * declares what its __init__.py re-exports) and on attrs 25.3.0 as PyPI
 * ships it (`fields`: defined in attr/_make.py, declared in
 * attr/__init__.pyi, re-exported by attrs).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { attrsAt } from '../helpers/published';
import { copyFixture, Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const made: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  locations: { path: string; line: number; column: number }[];
  total: number;
}
const places = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column}`);

function fixture(): string {
  const dir = copyFixture('py-stubs');
  made.push(dir);
  return dir;
}

/** Python run in `dir` as the project's own code would be (python3 on PATH). */
function python(dir: string, code: string): { exit: number; output: string } {
  const r = Bun.spawnSync(['python3', '-c', code], { cwd: dir, env: lspq.env(), stdin: 'ignore' });
  return { exit: r.exitCode, output: `${r.stdout.toString()}${r.stderr.toString()}` };
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

for (const server of ['pyright', 'basedpyright']) {
  describe(`py-stubs with ${server}`, () => {
    let root = '';
    beforeAll(() => {
      root = fixture();
    });
    const refs = (target: string, ...more: string[]) =>
      lspq.json<Answer>(['refs', target, '--server', server, ...more], { cwd: root });

    test('refs of a function: the same uses asked at the implementation, at the stub and at a use', async () => {
      const uses = ['app.py:2:26', 'app.py:11:11'];
      for (const target of ['kit/box.py:9:5', 'kit/box.pyi:6:5', 'app.py:11:11'])
        expect([target, places(await refs(target))]).toEqual([target, uses]);
      // Both declarations with --include-declaration, wherever asked.
      for (const target of ['kit/box.py:9:5', 'app.py:11:11'])
        expect(places(await refs(target, '--include-declaration'))).toEqual([
          ...uses,
          'kit/box.py:9:5',
          'kit/box.pyi:6:5',
        ]);
    });

    test("refs of a method: the implementation's own uses and those through the stub, wherever asked", async () => {
      const uses = ['app.py:11:28', 'kit/box.py:10:35'];
      for (const target of ['kit/box.py:5:9', 'kit/box.pyi:4:9', 'app.py:11:28'])
        expect([target, places(await refs(target))]).toEqual([target, uses]);
    });

    test("refs of what a package's stub declares and its __init__.py re-exports", async () => {
      const uses = [
        'app.py:1:17',
        'app.py:12:11',
        'kit/__init__.py:1:21',
        'kit/__init__.py:3:13',
        'kit/_build.py:6:12',
        'kit/_build.py:6:30',
      ];
      for (const target of ['kit/_build.py:1:5', 'kit/__init__.pyi:1:5', 'app.py:12:11'])
        expect([target, places(await refs(target))]).toEqual([target, uses]);
    });
  });

  describe(`rename across a stub with ${server}`, () => {
    test('asked at the implementation: the stub and every use renamed, and the code still runs', async () => {
      const root = fixture();
      const r = await lspq.run(['rename', 'kit/box.py:9:5', 'resize', '--server', server], { cwd: root });
      expect([r.exit, r.stderr]).toEqual([0, "lspq: renamed to 'resize': 4 edits in 3 files\n"]);
      expect(r.stdout).toBe('app.py: 2 edits\nkit/box.py: 1 edit\nkit/box.pyi: 1 edit\n');
      expect(read(root, 'kit/box.pyi')).toContain('\ndef resize(box: Box, factor: int) -> Box: ...\n');
      expect(read(root, 'kit/box.py')).toContain('\ndef resize(box, factor):\n');
      expect(python(root, 'import app; app.main()')).toEqual({ exit: 0, output: 'a-b 7 5\n' });
    });

    test('a re-exported function asked at its implementation: the package stub and its importers follow', async () => {
      const root = fixture();
      const r = await lspq.run(['rename', 'kit/_build.py:1:5', 'build', '--server', server], { cwd: root });
      expect([r.exit, r.stdout]).toEqual([
        0,
        'app.py: 2 edits\nkit/__init__.py: 2 edits\nkit/__init__.pyi: 1 edit\nkit/_build.py: 3 edits\n',
      ]);
      expect(read(root, 'kit/__init__.pyi')).toBe('def build(parts: list[str]) -> str: ...\n');
      expect(python(root, 'import app; app.main()')).toEqual({ exit: 0, output: 'a-b 7 5\n' });
    });
  });
}

describe('impls across a stub with basedpyright (pyright offers none)', () => {
  test('an override found through the stub, and both declarations, wherever asked', async () => {
    const root = fixture();
    const expected = ['app.py:6:9', 'kit/box.py:5:9', 'kit/box.pyi:4:9'];
    for (const target of ['kit/box.py:5:9', 'kit/box.pyi:4:9', 'app.py:11:28']) {
      const a = await lspq.json<Answer>(['impls', target, '--server', 'basedpyright'], { cwd: root });
      expect([target, places(a)]).toEqual([target, expected]);
    }
  });
});

describe('mv of a module with a stub', () => {
  test('the module and its stub move together (pyright updates no imports: --no-update)', async () => {
    const root = fixture();
    const r = await lspq.run(['mv', 'kit/box.py', 'kit/crate.py', '--no-update'], { cwd: root });
    expect([r.exit, r.stderr]).toEqual([0, 'lspq: moved kit/box.py -> kit/crate.py, kit/box.pyi -> kit/crate.pyi\n']);
    expect(
      ['kit/box.py', 'kit/box.pyi', 'kit/crate.py', 'kit/crate.pyi'].map((f) => existsSync(join(root, f))),
    ).toEqual([false, false, true, true]);
    // Asked from the stub, the same.
    const back = await lspq.run(['mv', 'kit/crate.pyi', 'kit/box.pyi', '--no-update', '--dry-run'], { cwd: root });
    expect([back.exit, back.stderr]).toEqual([
      0,
      'lspq: would move kit/crate.pyi -> kit/box.pyi, kit/crate.py -> kit/box.py\n',
    ]);
  });

  test('a new path that would split the pair is refused, nothing moved', async () => {
    const root = fixture();
    const r = await lspq.run(['mv', 'kit/box.pyi', 'kit/box.txt', '--no-update'], { cwd: root });
    expect([r.exit, r.stderr]).toEqual([
      2,
      'lspq: kit/box.pyi moves with its module kit/box.py: name a new path ending in .pyi, so the module follows; nothing was moved\n',
    ]);
    expect([existsSync(join(root, 'kit/box.pyi')), existsSync(join(root, 'kit/box.txt'))]).toEqual([true, false]);
  });
});

describe('attrs 25.3.0: fields', () => {
  let root = '';
  beforeAll(() => {
    root = attrsAt(scratchDir('python-stubs-attrs'));
    made.push(root);
  });
  // Asked at its implementation, at its stub, at a use through attr._make, and at uses through attr's and attrs's stubs.
  const targets = [
    'src/attr/_make.py:1836:5',
    'src/attr/__init__.pyi:311:5',
    'tests/test_make.py:767:23',
    'tests/typing_example.py:133:6',
    'tests/typing_example.py:401:7',
  ];
  const some = [
    'src/attr/__init__.py:23:5',
    'src/attr/_funcs.py:63:13',
    'src/attr/_make.py:1923:14',
    'src/attrs/__init__.py:16:5',
    'src/attrs/__init__.pyi:32:28',
    'tests/test_next_gen.py:41:29',
    'tests/typing_example.py:401:7',
  ];

  for (const server of ['pyright', 'basedpyright']) {
    test(`refs with ${server}: the same 134 places wherever asked`, async () => {
      const answers = [];
      for (const target of targets)
        answers.push(await lspq.json<Answer>(['refs', target, '--server', server, '--limit', '0'], { cwd: root }));
      const first = places(answers[0] as Answer);
      expect([first.length, some.filter((p) => !first.includes(p))]).toEqual([134, []]);
      // Neither declaration is a reference.
      expect(first.filter((p) => p === 'src/attr/_make.py:1836:5' || p === 'src/attr/__init__.pyi:311:5')).toEqual([]);
      for (const [i, a] of answers.entries())
        expect([targets[i], a.total, places(a)]).toEqual([targets[i], 134, first]);
    }, 600_000);

    test(`rename with ${server} at the implementation: verified, written, and attrs still imports`, async () => {
      const copy = attrsAt(scratchDir(`python-stubs-attrs-${server}`));
      made.push(copy);
      const rename = ['rename', 'src/attr/_make.py:1836:5', 'get_fields', '--server', server, '--timeout', '300'];
      // The dry run's diff holds the stub, and attrs's import through it; so its "no error" is true.
      const dry = await lspq.run([...rename, '--dry-run', '--verify'], { cwd: copy });
      expect([dry.exit, dry.stderr.split('\n').at(-2)]).toEqual([
        0,
        "lspq: the rename to 'get_fields'; verified in memory: it would introduce no error; nothing written",
      ]);
      const diffed = [...dry.stdout.matchAll(/^diff --git a\/(\S+) /gm)].map((m) => m[1]);
      const sides = ['src/attr/__init__.pyi', 'src/attr/_make.py', 'src/attrs/__init__.py', 'src/attrs/__init__.pyi'];
      expect([diffed.length, sides.filter((f) => !diffed.includes(f))]).toEqual([18, []]);
      const written = await lspq.run(rename, { cwd: copy });
      expect([written.exit, written.stderr.split('\n').at(-2)]).toEqual([
        0,
        "lspq: renamed to 'get_fields': 136 edits in 18 files",
      ]);
      expect(
        python(
          copy,
          "import sys; sys.path.insert(0, 'src'); import attrs, attr; print(attrs.get_fields is attr.get_fields)",
        ),
      ).toEqual({ exit: 0, output: 'True\n' });
      // The old name is gone from both sides.
      expect(read(copy, 'src/attr/_make.py').split('\n')[1835]).toBe('def get_fields(cls):');
      expect(read(copy, 'src/attr/__init__.pyi').split('\n')[310]).toBe(
        'def get_fields(cls: type[AttrsInstance]) -> Any: ...',
      );
      for (const file of [
        'src/attr/_make.py',
        'src/attr/__init__.pyi',
        'src/attr/__init__.py',
        'src/attrs/__init__.py',
      ])
        expect([file, /\bdef fields\(|^\s*fields,$|"fields"/m.test(read(copy, file))]).toEqual([file, false]);
    }, 900_000);
  }
});
