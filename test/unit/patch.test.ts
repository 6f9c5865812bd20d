/**
 * diag --patch's reader (src/commands/patches/read.ts) on patches as git
 * writes them: several files, two hunks, a new file, a deleted one, a
 * rename with and without hunks, CRLF, no newline at the end, --no-prefix,
 * a binary change; and patches that do not apply, each named by file and
 * hunk.
 */
import { describe, expect, test } from 'bun:test';
import { readPatch } from '../../src/commands/patches/read';

const TEN = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n';
const DISK: Record<string, string> = {
  'a.txt': TEN,
  'gone.txt': 'keep\nme\n',
  'old.txt': 'alpha\nbeta\ngamma\ndelta\n',
  'crlf.txt': 'x\r\ny\r\nz\r\n',
  'nonl.txt': 'no newline',
};

const read = (disk: Record<string, string>) => (p: string) => disk[p];
const run = (patch: string, disk = DISK) =>
  readPatch(
    patch,
    (name) => name,
    read(disk),
    (p) => p,
  );
const error = (patch: string, disk = DISK) => {
  try {
    run(patch, disk);
  } catch (err) {
    return [(err as { code: string }).code, (err as Error).message];
  }
  throw new Error('it applied');
};

/** What `git diff HEAD -M` printed for the changes of DISK below (made in a scratch repository). */
const GIT_DIFF = [
  'diff --git a/a.txt b/a.txt',
  'index e031777..73b32b4 100644',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,5 +1,5 @@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  ' four',
  ' five',
  '@@ -8,5 +8,5 @@ seven',
  ' eight',
  ' nine',
  ' ten',
  '-eleven',
  '+ELEVEN',
  ' twelve',
  'diff --git a/added.txt b/added.txt',
  'new file mode 100644',
  'index 0000000..5786b13',
  '--- /dev/null',
  '+++ b/added.txt',
  '@@ -0,0 +1,2 @@',
  '+brand',
  '+new',
  'diff --git a/crlf.txt b/crlf.txt',
  'index 415a78b..ce5d508 100644',
  '--- a/crlf.txt',
  '+++ b/crlf.txt',
  '@@ -1,3 +1,3 @@',
  ' x\r',
  '-y\r',
  '+Y\r',
  ' z\r',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  'index 243154c..0000000',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-keep',
  '-me',
  'diff --git a/old.txt b/new.txt',
  'similarity index 73%',
  'rename from old.txt',
  'rename to new.txt',
  'index 7a28df3..935d636 100644',
  '--- a/old.txt',
  '+++ b/new.txt',
  '@@ -1,4 +1,4 @@',
  ' alpha',
  ' beta',
  '-gamma',
  '+GAMMA',
  ' delta',
  'diff --git a/nonl.txt b/nonl.txt',
  'index 20cbb4d..db1dabe 100644',
  '--- a/nonl.txt',
  '+++ b/nonl.txt',
  '@@ -1 +1 @@',
  '-no newline',
  '\\ No newline at end of file',
  '+no newline, changed',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('git diff', () => {
  test('several files: two hunks, created, deleted, renamed with a hunk, CRLF, no newline at the end', () => {
    const { files, binary } = run(GIT_DIFF);
    expect(binary).toEqual([]);
    expect(files).toEqual([
      { path: 'a.txt', before: TEN, after: TEN.replace('two', 'TWO').replace('eleven', 'ELEVEN') },
      { path: 'added.txt', before: null, after: 'brand\nnew\n' },
      { path: 'crlf.txt', before: 'x\r\ny\r\nz\r\n', after: 'x\r\nY\r\nz\r\n' },
      { path: 'gone.txt', before: 'keep\nme\n', after: null },
      {
        path: 'new.txt',
        before: 'alpha\nbeta\ngamma\ndelta\n',
        after: 'alpha\nbeta\nGAMMA\ndelta\n',
        renamedFrom: 'old.txt',
      },
      { path: 'nonl.txt', before: 'no newline', after: 'no newline, changed' },
    ]);
  });

  test('a rename without hunks keeps the text; --no-prefix paths are read as written', () => {
    const moved = 'diff --git a/a.txt b/moved.txt\nsimilarity index 100%\nrename from a.txt\nrename to moved.txt\n';
    expect(run(moved).files).toEqual([{ path: 'moved.txt', before: TEN, after: TEN, renamedFrom: 'a.txt' }]);
    const bare = 'diff --git a.txt a.txt\n--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n';
    expect(run(bare).files).toEqual([{ path: 'a.txt', before: TEN, after: TEN.replace('two', '2') }]);
  });

  test('line endings: an LF patch on a CRLF file, a CRLF patch on an LF file', () => {
    const lf = '--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n';
    expect(run(lf).files).toEqual([{ path: 'crlf.txt', before: 'x\r\ny\r\nz\r\n', after: 'x\r\nY\r\nz\r\n' }]);
    const crlf = '--- a/a.txt\r\n+++ b/a.txt\r\n@@ -1,2 +1,2 @@\r\n one\r\n-two\r\n+2\r\n';
    expect(run(crlf).files).toEqual([{ path: 'a.txt', before: TEN, after: TEN.replace('two', '2') }]);
  });

  test('a hunk whose context sits a few lines from its header still applies, as git apply allows', () => {
    const shifted = '--- a/a.txt\n+++ b/a.txt\n@@ -3,3 +3,3 @@\n four\n-five\n+5\n six\n';
    expect(run(shifted).files[0]!.after).toBe(TEN.replace('five', '5'));
  });

  test('a binary change is named apart, the rest read', () => {
    const bin =
      'diff --git a/bin.dat b/bin.dat\nnew file mode 100644\nindex 0000000..bdc955b\nBinary files /dev/null and b/bin.dat differ\n';
    expect(run(bin + GIT_DIFF.split('diff --git a/added.txt')[0]!)).toEqual({
      files: [{ path: 'a.txt', before: TEN, after: TEN.replace('two', 'TWO').replace('eleven', 'ELEVEN') }],
      binary: ['bin.dat'],
    });
  });
});

describe('an empty patch is bad input: nothing was given to check', () => {
  test.each([
    ['nothing at all', ''],
    ['only blank lines', '\n\n'],
  ])('%s', (_what, patch) => {
    expect(error(patch)).toEqual([
      'usage',
      "the patch is empty: there is nothing to check; give a unified diff (git diff's output) that changes something",
    ]);
  });
});

describe('a patch that does not apply: exit 2, naming the file and the hunk', () => {
  test('a line the file does not have where the hunk says', () => {
    const wrong = GIT_DIFF.replace('-eleven', '-eleventh');
    expect(error(wrong)).toEqual([
      'patch_does_not_apply',
      'the patch does not apply: a.txt hunk 2 (@@ -8,5 +8,5 @@) expects "eleventh" at line 11, where the file has "eleven"',
    ]);
  });

  test('a hunk past the end of the file', () => {
    const past = '--- a/gone.txt\n+++ b/gone.txt\n@@ -2,2 +2,2 @@\n me\n-more\n+MORE\n';
    expect(error(past)).toEqual([
      'patch_does_not_apply',
      'the patch does not apply: gone.txt hunk 1 (@@ -2,2 +2,2 @@) expects "more" at line 3, where the file has ended',
    ]);
  });

  test('a file that is not there, a file that is, a deletion of more than the patch holds', () => {
    expect(error('--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-a\n+b\n')).toEqual([
      'patch_does_not_apply',
      'the patch does not apply: nope.txt does not exist (the patch changes it)',
    ]);
    expect(error('--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n')).toEqual([
      'patch_does_not_apply',
      'the patch does not apply: a.txt already exists (the patch creates it)',
    ]);
    expect(error('--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-keep\n')).toEqual([
      'patch_does_not_apply',
      'the patch does not apply: it deletes gone.txt, whose text holds more than the lines it removes',
    ]);
  });

  test('text that is no patch: a usage error', () => {
    expect(error('just some words\n')).toEqual([
      'usage',
      "the patch names no file: give a unified diff (git diff's output)",
    ]);
  });
});
