/**
 * Go's other build configurations: gopls sees this platform's files with
 * the environment's tags and cgo as it is set, so b_windows.go, a file under
 * `//go:build integration` and one under `//go:build !cgo` are outside its
 * answers here. refs, calls --in and rename
 * ask again under a configuration that compiles each such file that
 * writes the name, and merge; a file no configuration compiles is named
 * (refs exit 3, `unsearched` in JSON) and makes rename write nothing
 * (exit 3) unless --this-build-only. After the rename every build
 * compiles: GOOS=windows go build, go build, go vet -tags integration.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, git, Lspq, scratchDir } from '../helpers/lspq';
import { mkdirSync } from 'node:fs';

const lspq = new Lspq();
const dir = scratchDir('go-builds');
const FILES: Record<string, string> = {
  'go.mod': 'module example.com/builds\n\ngo 1.22\n',
  'a.go': 'package builds\n\n// Foo is the thing.\nfunc Foo() int { return 1 }\n',
  'b_linux.go': 'package builds\n\nfunc onLinux() int { return Foo() }\n',
  'b_windows.go': 'package builds\n\nfunc onWindows() int { return Foo() + Foo() }\n',
  'c_tagged.go': '//go:build integration\n\npackage builds\n\nfunc tagged() int { return Foo() }\n',
  // A program of its own (go run gen.go): in no build of the package, and not one of Foo's uses.
  'gen.go': '//go:build ignore\n\npackage main\n\nfunc never() int { return 0 }\n',
};
for (const [path, text] of Object.entries(FILES)) writeFileSync(join(dir, path), text);
git(dir, 'init', '-q');
git(dir, 'add', '-A');
git(dir, 'commit', '-qm', 'builds');

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

const REFS = [
  'b_linux.go:3:29: func onLinux() int { return Foo() }  (in onLinux)',
  'b_windows.go:3:31: func onWindows() int { return Foo() + Foo() }  (in onWindows)',
  'b_windows.go:3:39: func onWindows() int { return Foo() + Foo() }  (in onWindows)',
  'c_tagged.go:5:28: func tagged() int { return Foo() }  (in tagged)',
  '',
].join('\n');

const go = (args: string[], env: Record<string, string> = {}) => {
  const r = Bun.spawnSync(['go', ...args], { cwd: dir, env: { ...lspq.env(), ...env }, stderr: 'pipe' });
  return { exit: r.exitCode, stderr: r.stderr.toString() };
};

describe('refs and rename across build configurations', () => {
  test('refs: every build’s uses, cold and asked again, and the builds asked in JSON', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await lspq.run(['refs', 'a.go:4:Foo'], { cwd: dir })).toEqual({ stdout: REFS, stderr: '', exit: 0 });
    }
    const json = await lspq.json<{ builds: string[]; total: number }>(['refs', 'a.go:4:Foo'], { cwd: dir });
    expect([json.total, json.builds.length]).toEqual([4, 2]);
    expect(json.builds.some((b) => b.startsWith('GOOS=windows '))).toBe(true);
    expect(json.builds.some((b) => b.endsWith(' -tags=integration'))).toBe(true);
  });

  test('calls --in: the callers in every build’s files', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await lspq.run(['calls', 'a.go:4:Foo'], { cwd: dir })).toEqual({
        stdout: [
          'a.go:4:6: function Foo',
          'b_linux.go:3:6:   ← function onLinux',
          'b_windows.go:3:6:   ← function onWindows',
          'c_tagged.go:5:6:   ← function tagged',
          '',
        ].join('\n'),
        stderr: '',
        exit: 0,
      });
    }
  });

  test('rename: every build’s files, and every build compiles after it', async () => {
    const r = await lspq.run(['rename', 'a.go:4:Foo', 'Bar'], { cwd: dir });
    expect([r.stdout, r.exit]).toEqual([
      'a.go: 2 edits\nb_linux.go: 1 edit\nb_windows.go: 2 edits\nc_tagged.go: 1 edit\n',
      0,
    ]);
    expect(readFileSync(join(dir, 'b_windows.go'), 'utf8')).toBe(
      'package builds\n\nfunc onWindows() int { return Bar() + Bar() }\n',
    );
    expect(go(['build', './...'], { GOOS: 'windows' })).toEqual({ exit: 0, stderr: '' });
    expect(go(['build', './...'])).toEqual({ exit: 0, stderr: '' });
    expect(go(['vet', '-tags', 'integration', './...'])).toEqual({ exit: 0, stderr: '' });
    // After the edit, the same question under the new name.
    expect((await lspq.run(['refs', 'a.go:4:Bar'], { cwd: dir })).stdout).toBe(REFS.replaceAll('Foo', 'Bar'));
  });

  test('a file no configuration compiles: refs names it (exit 3), rename writes nothing (exit 3) unless --this-build-only', async () => {
    const never = ['linux', 'windows', 'darwin', 'freebsd', 'openbsd', 'netbsd', 'dragonfly', 'solaris', 'illumos']
      .concat(['aix', 'android', 'ios', 'plan9', 'js', 'wasip1', 'hurd', 'zos'])
      .map((os) => `!${os}`)
      .join(' && ');
    writeFileSync(
      join(dir, 'd_weird.go'),
      `//go:build ${never}\n\npackage builds\n\nfunc weird() int { return Bar() }\n`,
    );
    const refs = await lspq.run(['refs', 'a.go:4:Bar'], { cwd: dir });
    expect(refs).toEqual({
      stdout: REFS.replaceAll('Foo', 'Bar'),
      stderr:
        'lspq: not searched: d_weird.go (no build configuration lspq tried compiles them); the answer may lack their places\n',
      exit: 3,
    });
    const json = await lspq.json<{ unsearched: string[] }>(['refs', 'a.go:4:Bar'], { cwd: dir });
    expect(json.unsearched).toEqual(['d_weird.go']);
    const callers = await lspq.run(['calls', 'a.go:4:Bar'], { cwd: dir });
    expect([callers.exit, callers.stderr]).toEqual([
      3,
      'lspq: not searched: d_weird.go (no build configuration lspq tried compiles them); the answer may lack their places\n',
    ]);
    const before = Object.fromEntries(Object.keys(FILES).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    const refused = await lspq.run(['rename', 'a.go:4:Bar', 'Baz'], { cwd: dir });
    expect(refused).toEqual({
      stdout: '',
      stderr:
        "lspq: 'Bar' is written in d_weird.go, which no build configuration lspq tried compiles, so the rename cannot reach it; nothing was written (--this-build-only renames what this build sees)\n",
      exit: 3,
    });
    expect(Object.fromEntries(Object.keys(FILES).map((f) => [f, readFileSync(join(dir, f), 'utf8')]))).toEqual(before);
    const only = await lspq.run(['rename', 'a.go:4:Bar', 'Baz', '--this-build-only'], { cwd: dir });
    expect([only.stdout, only.exit]).toEqual(['a.go: 2 edits\nb_linux.go: 1 edit\n', 0]);
    expect(only.stderr).toContain("lspq: warning: 'Bar' is still written where gopls did not rename it");
    expect(only.stderr).toContain('b_windows.go:3:31, b_windows.go:3:39, c_tagged.go:5:28, d_weird.go:5:27');
  });
});

describe("another build's gopls is a question's extra", () => {
  // A daemon of its own that counts three project servers at most (LSPQ_MAX_SERVERS): the extras are not counted.
  const counted = new Lspq();
  const env = { LSPQ_MAX_SERVERS: '3' };
  const pkg = scratchDir('go-builds-extras');
  const others = [copyFixture('go-shapes'), copyFixture('go-shapes')];
  for (const [path, text] of Object.entries(FILES)) writeFileSync(join(pkg, path), text);
  git(pkg, 'init', '-q');
  git(pkg, 'add', '-A');
  git(pkg, 'commit', '-qm', 'builds');
  afterAll(async () => {
    expect(await counted.stop()).toEqual([]);
    for (const d of [pkg, ...others]) rmSync(d, { recursive: true, force: true });
  });
  interface Held {
    id: string;
    root: string;
    pid: number;
    extra?: boolean;
  }
  const held = async () => (await counted.json<{ servers: Held[] }>(['daemon', 'status'], { env })).servers;

  test('two other projects’ warm servers survive refs across three builds, cold and asked again', async () => {
    for (const other of others)
      expect(await counted.run(['def', 'main.go:7:TotalArea'], { cwd: other, env })).toEqual({
        stdout: 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
        stderr: '',
        exit: 0,
      });
    const warm = (await held()).filter((s) => others.includes(s.root));
    expect(warm.map((s) => [s.id, s.extra])).toEqual([
      ['gopls', undefined],
      ['gopls', undefined],
    ]);
    for (let i = 0; i < 2; i++) {
      expect(await counted.run(['refs', 'a.go:4:Foo'], { cwd: pkg, env })).toEqual({
        stdout: REFS,
        stderr: '',
        exit: 0,
      });
      const now = await held();
      expect(now.filter((s) => others.includes(s.root)).map((s) => [s.root, s.pid])).toEqual(
        warm.map((s) => [s.root, s.pid]),
      );
      // The project's own gopls, and one extra for windows and one for the integration tag.
      expect(
        now
          .filter((s) => s.root === pkg)
          .map((s) => s.extra ?? false)
          .sort(),
      ).toEqual([false, true, true]);
    }
    // The other projects answer from the same servers.
    for (const other of others)
      expect((await counted.run(['def', 'main.go:7:TotalArea'], { cwd: other, env })).exit).toBe(0);
    expect((await held()).filter((s) => others.includes(s.root)).map((s) => s.pid)).toEqual(warm.map((s) => s.pid));
  });
});

describe('cgo, and a file name that is not ASCII', () => {
  // A package as the issue had it: refs listed b_cgo.go alone (the evaluator knew nothing of cgo, and git grep
  // quoted ü_windows.go, which was then skipped). The cgo file needs a C compiler, as the Rust tests' linker does.
  const pkg = join(dir, 'cgo');
  const CGO: Record<string, string> = {
    'go.mod': 'module example.com/cgo\n\ngo 1.22\n',
    'a.go': 'package cgo\n\nfunc Foo() int { return 1 }\n',
    'b_cgo.go': '//go:build cgo\n\npackage cgo\n\nimport "C"\n\nfunc withCgo() int { return Foo() }\n',
    'c_nocgo.go': '//go:build !cgo\n\npackage cgo\n\nfunc withoutCgo() int { return Foo() }\n',
    'ü_windows.go': 'package cgo\n\nfunc onWindows() int { return Foo() }\n',
  };
  mkdirSync(pkg);
  for (const [path, text] of Object.entries(CGO)) writeFileSync(join(pkg, path), text);
  git(pkg, 'init', '-q');
  git(pkg, 'add', '-A');
  git(pkg, 'commit', '-qm', 'cgo');
  const CALLERS = [
    'b_cgo.go:7:29: func withCgo() int { return Foo() }  (in withCgo)',
    'c_nocgo.go:5:32: func withoutCgo() int { return Foo() }  (in withoutCgo)',
    'ü_windows.go:3:31: func onWindows() int { return Foo() }  (in onWindows)',
    '',
  ].join('\n');

  for (const cgo of ['1', '0'])
    test(`refs with CGO_ENABLED=${cgo}: the callers of every configuration, cold and asked again, each configuration named`, async () => {
      const env = { CGO_ENABLED: cgo };
      for (let i = 0; i < 2; i++)
        expect(await lspq.run(['refs', 'a.go:3:Foo'], { cwd: pkg, env })).toEqual({
          stdout: CALLERS,
          stderr: '',
          exit: 0,
        });
      const json = await lspq.json<{ builds: string[] }>(['refs', 'a.go:3:Foo'], { cwd: pkg, env });
      expect(json.builds.sort()).toEqual([
        `GOOS=linux GOARCH=amd64 CGO_ENABLED=${cgo === '1' ? 0 : 1}`,
        'GOOS=windows GOARCH=amd64 CGO_ENABLED=0',
      ]);
    });

  test('rename: every configuration’s files; the builds without cgo compile after it', async () => {
    const r = await lspq.run(['rename', 'a.go:3:Foo', 'Bar'], { cwd: pkg });
    expect([r.stdout, r.exit]).toEqual([
      'a.go: 1 edit\nb_cgo.go: 1 edit\nc_nocgo.go: 1 edit\nü_windows.go: 1 edit\n',
      0,
    ]);
    for (const [path, text] of Object.entries(CGO))
      expect([path, readFileSync(join(pkg, path), 'utf8')]).toEqual([path, text.replaceAll('Foo', 'Bar')]);
    // (A cgo build compiles runtime/cgo with the C compiler, 20 s in a fresh cache: its file is compared above.)
    const build = (env: Record<string, string>) => {
      const b = Bun.spawnSync(['go', 'build', './...'], { cwd: pkg, env: { ...lspq.env(), ...env }, stderr: 'pipe' });
      return { exit: b.exitCode, stderr: b.stderr.toString() };
    };
    for (const env of [{ CGO_ENABLED: '0' }, { GOOS: 'windows' }] as Record<string, string>[])
      expect([env, build(env)]).toEqual([env, { exit: 0, stderr: '' }]);
  });
});

describe('an index alone names the files its build left out, from the table made with it', () => {
  // GOROOT/src: the search of 6,726 files for another build's was 2.2 s of the first answer after `lspq index`.
  const pkg = scratchDir('go-builds-index');
  const LEFT_OUT: Record<string, string> = {
    ...FILES,
    // Left out here, and names Foo only in a comment: not one of its uses.
    'e_darwin.go': 'package builds\n\n// Foo is not called on darwin.\nfunc onDarwin() int { return 2 }\n',
  };
  for (const [path, text] of Object.entries(LEFT_OUT)) writeFileSync(join(pkg, path), text);
  git(pkg, 'init', '-q');
  git(pkg, 'add', '-A');
  git(pkg, 'commit', '-qm', 'builds');
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));
  const note = (files: string) =>
    `lspq: not searched: ${files} (the index's build leaves them out; drop --index-only to ask gopls under a build that compiles each); the answer may lack their places\n`;
  const ONLY = ['refs', 'a.go:4:Foo', '--index-only'];

  test('lspq index, then refs --index-only from a new daemon and asked again: the left-out files that call it', async () => {
    expect((await lspq.run(['index'], { cwd: pkg })).exit).toBe(0);
    await lspq.run(['daemon', 'stop']);
    for (let i = 0; i < 2; i++)
      expect(await lspq.run(ONLY, { cwd: pkg })).toEqual({
        stdout: 'b_linux.go:3:29: func onLinux() int { return Foo() }  (in onLinux)\n',
        stderr: note('b_windows.go, c_tagged.go'),
        exit: 3,
      });
    const json = await lspq.json<{ unsearched: string[]; unsearchedBecause: string }>(ONLY, { cwd: pkg });
    expect(json.unsearched).toEqual(['b_windows.go', 'c_tagged.go']);
  });

  test('a left-out file edited since to call it is named; taken back, it is not', async () => {
    const path = join(pkg, 'e_darwin.go');
    writeFileSync(path, 'package builds\n\nfunc onDarwin() int { return Foo() }\n');
    expect((await lspq.run(ONLY, { cwd: pkg })).stderr).toBe(note('b_windows.go, c_tagged.go, e_darwin.go'));
    writeFileSync(path, LEFT_OUT['e_darwin.go']!);
    expect((await lspq.run(ONLY, { cwd: pkg })).stderr).toBe(note('b_windows.go, c_tagged.go'));
  });

  test('a name no left-out file writes: the answer is whole (exit 0)', async () => {
    writeFileSync(join(pkg, 'f.go'), 'package builds\n\nfunc Solo() int { return 3 }\n\nvar _ = Solo()\n');
    try {
      expect((await lspq.run(['index'], { cwd: pkg })).exit).toBe(0);
      expect(await lspq.run(['refs', 'f.go:3:Solo', '--index-only'], { cwd: pkg })).toEqual({
        stdout: 'f.go:5:9: var _ = Solo()\n',
        stderr: '',
        exit: 0,
      });
    } finally {
      rmSync(join(pkg, 'f.go'), { force: true });
    }
  });
});
