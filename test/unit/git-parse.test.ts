// The inputs are real git 2.39 output, captured from a repository with awkward paths.
import { describe, expect, test } from 'bun:test';
import { parseBranches } from '../../src/git/parse-branch';
import { parseConfigList } from '../../src/git/parse-config';
import { parseDiff } from '../../src/git/parse-diff';
import { parseLog } from '../../src/git/parse-log';
import { hunksByPath, parseHunkHeader, unquote } from '../../src/git/parse-patch';
import { parseStatus } from '../../src/git/parse-status';

const STATUS =
  '# branch.oid af6fa78ca549a3710a9ad68f06ff355d56bded85\u0000# branch.head main\u0000# branch.upstream origin/main\u0000# branch.ab +2 -1\u0000' +
  '1 .M N... 100644 100644 100644 d5d0b8b4c4c9e936890870f6799cfbb5ba984470 d5d0b8b4c4c9e936890870f6799cfbb5ba984470 bin.dat\u0000' +
  '1 .D N... 100644 100644 000000 f2ad6c76f0115a6ba5b00456a849810e7ec0af20 f2ad6c76f0115a6ba5b00456a849810e7ec0af20 new\nline.txt\u0000' +
  '2 R. N... 100644 100644 100644 f00c965d8307308469e537302baa73048488f162 f00c965d8307308469e537302baa73048488f162 R100 new name.txt\u0000old.txt\u0000' +
  '1 .M N... 100644 100644 100644 61780798228d17af2d34fce4cfbdf35556832472 61780798228d17af2d34fce4cfbdf35556832472 quo"te.txt\u0000' +
  '1 MM N... 100644 100644 100644 78981922613b2afb6025042ff6bd878ac1994e85 9ad2ebbaff6f3397bb65002dcf4294d8d6243982 sp ace.txt\u0000' +
  'u UU N... 100644 100644 100644 100644 5716ca5987cbf97d6bb54920bea6adde242d87e6 76018072e09c5d31c8c6e3113b8aa0fe625195ca 0d0f1b4a3a48dc1dd26ef0f4c5a18e4eca6da5d7 both modified.txt\u0000' +
  '? untracked\n"x".txt\u0000! ignored dir/\u0000';

describe('status', () => {
  test('porcelain v2 with renames, conflicts and paths with spaces, quotes and newlines', () => {
    expect(parseStatus(STATUS)).toEqual({
      branch: 'main',
      oid: 'af6fa78ca549a3710a9ad68f06ff355d56bded85',
      upstream: 'origin/main',
      ahead: 2,
      behind: 1,
      staged: [
        { path: 'new name.txt', status: 'renamed', oldPath: 'old.txt' },
        { path: 'sp ace.txt', status: 'modified' },
      ],
      unstaged: [
        { path: 'bin.dat', status: 'modified' },
        { path: 'new\nline.txt', status: 'deleted' },
        { path: 'quo"te.txt', status: 'modified' },
        { path: 'sp ace.txt', status: 'modified' },
      ],
      untracked: ['untracked\n"x".txt'],
      conflicted: ['both modified.txt'],
      ignored: ['ignored dir/'],
    });
  });

  test('detached HEAD on an unborn branch, no upstream', () => {
    expect(parseStatus('# branch.oid (initial)\u0000# branch.head (detached)\u0000')).toEqual({
      branch: null,
      oid: null,
      ahead: 0,
      behind: 0,
      staged: [],
      unstaged: [],
      untracked: [],
      conflicted: [],
      ignored: [],
    });
  });
});

const COUNTS =
  ':100644 100644 d5d0b8b4c4c9e936890870f6799cfbb5ba984470 0000000000000000000000000000000000000000 M\u0000bin.dat\u0000' +
  ':100644 000000 f2ad6c76f0115a6ba5b00456a849810e7ec0af20 0000000000000000000000000000000000000000 D\u0000new\nline.txt\u0000' +
  ':100644 100644 61780798228d17af2d34fce4cfbdf35556832472 0000000000000000000000000000000000000000 M\u0000quo"te.txt\u0000' +
  ':100644 100644 9ad2ebbaff6f3397bb65002dcf4294d8d6243982 0000000000000000000000000000000000000000 M\u0000sp ace.txt\u0000' +
  ':100644 100644 4ae8ef021bf6fcfff43a13be5abfa52bb6fb5dbc 0000000000000000000000000000000000000000 M\u0000ünï.txt\u0000' +
  '-\t-\tbin.dat\u00000\t1\tnew\nline.txt\u00001\t0\tquo"te.txt\u00001\t0\tsp ace.txt\u00001\t0\tünï.txt\u0000';
const PATCH =
  'diff --git a/bin.dat b/bin.dat\nindex d5d0b8b..4a27031 100644\nBinary files a/bin.dat and b/bin.dat differ\n' +
  'diff --git "a/new\\nline.txt" "b/new\\nline.txt"\ndeleted file mode 100644\nindex f2ad6c7..0000000\n--- "a/new\\nline.txt"\n+++ /dev/null\n@@ -1 +0,0 @@\n-c\n' +
  'diff --git "a/quo\\"te.txt" "b/quo\\"te.txt"\nindex 6178079..e5ea8f9 100644\n--- "a/quo\\"te.txt"\n+++ "b/quo\\"te.txt"\n@@ -1 +1,2 @@\n b\n+q\n' +
  'diff --git a/sp ace.txt b/sp ace.txt\nindex 9ad2ebb..e3990a7 100644\n--- a/sp ace.txt\t\n+++ b/sp ace.txt\t\n@@ -1,2 +1,3 @@ fn x\n a\n a2\n+a3\n' +
  'diff --git a/ünï.txt b/ünï.txt\nindex 4ae8ef0..3369f51 100644\n--- a/ünï.txt\n+++ b/ünï.txt\n@@ -1 +1,2 @@\n u\n+ü\n';

const h = (oldStart: number, oldLines: number, newStart: number, newLines: number, header: string) => ({
  oldStart,
  oldLines,
  newStart,
  newLines,
  header,
});

describe('diff', () => {
  test('raw + numstat + hunks, binary files without counts', () => {
    expect(parseDiff(COUNTS, PATCH)).toEqual({
      files: [
        { path: 'bin.dat', status: 'modified', additions: null, deletions: null, binary: true, hunks: [] },
        {
          path: 'new\nline.txt',
          status: 'deleted',
          additions: 0,
          deletions: 1,
          binary: false,
          hunks: [h(1, 1, 0, 0, '@@ -1 +0,0 @@')],
        },
        {
          path: 'quo"te.txt',
          status: 'modified',
          additions: 1,
          deletions: 0,
          binary: false,
          hunks: [h(1, 1, 1, 2, '@@ -1 +1,2 @@')],
        },
        {
          path: 'sp ace.txt',
          status: 'modified',
          additions: 1,
          deletions: 0,
          binary: false,
          hunks: [h(1, 2, 1, 3, '@@ -1,2 +1,3 @@ fn x')],
        },
        {
          path: 'ünï.txt',
          status: 'modified',
          additions: 1,
          deletions: 0,
          binary: false,
          hunks: [h(1, 1, 1, 2, '@@ -1 +1,2 @@')],
        },
      ],
    });
  });

  test('a rename (numstat: empty path, then old and new) and a rename patch without hunks', () => {
    const counts =
      ':100644 100644 f00c965d8307308469e537302baa73048488f162 f00c965d8307308469e537302baa73048488f162 R100\u0000old.txt\u0000new name.txt\u0000' +
      ':100644 100644 78981922613b2afb6025042ff6bd878ac1994e85 9ad2ebbaff6f3397bb65002dcf4294d8d6243982 M\u0000sp ace.txt\u0000' +
      '0\t0\t\u0000old.txt\u0000new name.txt\u00001\t0\tsp ace.txt\u0000';
    const patch =
      'diff --git a/old.txt b/new name.txt\nsimilarity index 100%\nrename from old.txt\nrename to new name.txt\n' +
      'diff --git a/sp ace.txt b/sp ace.txt\nindex 7898192..9ad2ebb 100644\n--- a/sp ace.txt\t\n+++ b/sp ace.txt\t\n@@ -1 +1,2 @@\n a\n+a2\n';
    expect(parseDiff(counts, patch).files).toEqual([
      {
        path: 'new name.txt',
        oldPath: 'old.txt',
        status: 'renamed',
        additions: 0,
        deletions: 0,
        binary: false,
        hunks: [],
      },
      {
        path: 'sp ace.txt',
        status: 'modified',
        additions: 1,
        deletions: 0,
        binary: false,
        hunks: [h(1, 1, 1, 2, '@@ -1 +1,2 @@')],
      },
    ]);
  });

  test('an unmerged path is one file, with the hunks of its combined diff (which git prints first)', () => {
    const counts =
      ':100644 100644 d5d0b8b4c4c9e936890870f6799cfbb5ba984470 0000000000000000000000000000000000000000 M\u0000a.txt\u0000' +
      ':000000 100644 0000000000000000000000000000000000000000 0000000000000000000000000000000000000000 U\u0000f.txt\u0000' +
      ':100644 100644 502fdbb4c4c9e936890870f6799cfbb5ba984470 0000000000000000000000000000000000000000 M\u0000f.txt\u0000' +
      '1\t0\ta.txt\u00000\t0\tf.txt\u00004\t0\tf.txt\u0000';
    const patch =
      'diff --cc f.txt\nindex 1,1..0000000\n--- a/f.txt\n+++ b/f.txt\n@@@ -1,3 -1,3 +1,7 @@@\n a\n++<<<<<<< HEAD\n' +
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n x\n+y\n';
    expect(parseDiff(counts, patch).files).toEqual([
      {
        path: 'a.txt',
        status: 'modified',
        additions: 1,
        deletions: 0,
        binary: false,
        hunks: [h(1, 1, 1, 2, '@@ -1 +1,2 @@')],
      },
      {
        path: 'f.txt',
        status: 'unmerged',
        additions: 4,
        deletions: 0,
        binary: false,
        hunks: [h(1, 3, 1, 7, '@@@ -1,3 -1,3 +1,7 @@@')],
      },
    ]);
  });

  test('a removed line that looks like a header stays a line', () => {
    const patch = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n--- a/evil\n-+++ b/evil\n rename to y\n';
    expect([...hunksByPath(patch).keys()]).toEqual(['x']);
  });

  test('hunk headers and C-quoted paths', () => {
    expect(parseHunkHeader('@@ -10,0 +11,3 @@ class A {')).toEqual(h(10, 0, 11, 3, '@@ -10,0 +11,3 @@ class A {'));
    expect(parseHunkHeader('@@ -1 +1 @@')).toEqual(h(1, 1, 1, 1, '@@ -1 +1 @@'));
    expect(parseHunkHeader('@@ nonsense')).toBeUndefined();
    expect(unquote('"a\\tb\\303\\274\\"c\\\\" rest')).toEqual({ value: 'a\tbü"c\\', rest: ' rest' });
  });
});

describe('log', () => {
  const ONE =
    'af6fa78ca549a3710a9ad68f06ff355d56bded85\u0000Ann "Q" Lee\u0000ann@example.com\u00002024-01-02T03:04:05+01:00\u0000Subject: with "quotes"\u0000Body line 1\n\nBody line 3\n\u0000';
  const TWO =
    '0123456789abcdef0123456789abcdef01234567\u0000B\u0000b@e\u00002024-01-01T00:00:00+00:00\u0000only a subject\u0000\u0000';
  const commits = [
    {
      hash: 'af6fa78ca549a3710a9ad68f06ff355d56bded85',
      author: 'Ann "Q" Lee',
      email: 'ann@example.com',
      date: '2024-01-02T03:04:05+01:00',
      subject: 'Subject: with "quotes"',
      body: 'Body line 1\n\nBody line 3',
    },
    {
      hash: '0123456789abcdef0123456789abcdef01234567',
      author: 'B',
      email: 'b@e',
      date: '2024-01-01T00:00:00+00:00',
      subject: 'only a subject',
      body: '',
    },
  ];
  test('commits separated by newlines', () => expect(parseLog(`${ONE}\n${TWO}`)).toEqual({ commits }));
  test('commits separated by NUL (the user gave -z)', () =>
    expect(parseLog(`${ONE}\u0000${TWO}`)).toEqual({ commits }));
  test('no commits', () => expect(parseLog('')).toEqual({ commits: [] }));
});

describe('branch', () => {
  test('current, upstreams, remote-tracking, and a detached HEAD skipped', () => {
    const text =
      '*\u0000(HEAD detached at 1234567)\u0000(HEAD detached at 1234567)\u0000\n \u0000refs/heads/main\u0000main\u0000origin/main\n \u0000refs/remotes/origin/main\u0000origin/main\u0000\n';
    expect(parseBranches(text)).toEqual({
      current: null,
      branches: [
        { name: 'main', current: false, remote: false, upstream: 'origin/main' },
        { name: 'origin/main', current: false, remote: true },
      ],
    });
    expect(parseBranches('*\u0000refs/heads/feat/x\u0000feat/x\u0000\n').current).toBe('feat/x');
  });
});

describe('config list', () => {
  test('scopes, values with newlines, and keys without a value', () => {
    expect(
      parseConfigList(
        'global\u0000user.name\nAnn\u0000local\u0000x.flag\u0000local\u0000filter.a=b.c.clean\nline1\nline2\u0000',
      ),
    ).toEqual([
      { scope: 'global', key: 'user.name', value: 'Ann' },
      { scope: 'local', key: 'x.flag', value: null },
      { scope: 'local', key: 'filter.a=b.c.clean', value: 'line1\nline2' },
    ]);
  });
});
