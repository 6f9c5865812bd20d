/** The --json shapes of status, diff, log and branch, on a repository with awkward paths. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DATE, TempRepo } from '../helpers/git-repo';

let r: TempRepo;
let remote: TempRepo;
const hash: Record<string, string> = {};

const NEWLINE = 'new\nline.txt';
const QUOTE = 'quo"te.txt';
const UNTRACKED = 'untracked\n"x" \t.txt';

beforeAll(() => {
  remote = new TempRepo('origin.git', false);
  remote.git('init', '-q', '--bare', '-b', 'main');
  r = new TempRepo();
  r.write('sp ace.txt', 'a\n');
  r.write(QUOTE, 'b\n');
  r.write(NEWLINE, 'c\n');
  r.write('old.txt', `${Array.from({ length: 10 }, (_, i) => i + 1).join('\n')}\n`);
  r.write('bin.dat', new Uint8Array([0, 1, 2, 0]));
  r.write('ünï.txt', 'u\n');
  hash.first = r.commitAll('first');
  r.write('ünï.txt', 'u\nü\n');
  hash.second = r.commitAll('Second: with "quotes"\n\nBody line 1\n\nBody line 3');
  r.git('remote', 'add', 'origin', remote.dir);
  r.git('push', '-q', '-u', 'origin', 'main');
  r.git('branch', 'feature', hash.first as string);
  r.write('sp ace.txt', 'a\nlocal\n');
  hash.third = r.commitAll('third, not pushed');
  // Work in progress: staged, unstaged, both, renamed, deleted, binary, untracked.
  r.write('sp ace.txt', 'a\nlocal\nstaged\n');
  r.git('add', 'sp ace.txt');
  r.write('sp ace.txt', 'a\nlocal\nstaged\nunstaged\n');
  r.git('mv', 'old.txt', 'new name.txt');
  r.git('rm', '-q', '--cached', NEWLINE);
  r.write(QUOTE, 'b\nq\n');
  r.write('bin.dat', new Uint8Array([0, 1, 3, 0]));
  r.write(UNTRACKED, 'x\n');
});

afterAll(() => {
  r.cleanup();
  remote.cleanup();
});

const h = (oldStart: number, oldLines: number, newStart: number, newLines: number) => ({
  oldStart,
  oldLines,
  newStart,
  newLines,
  header: `@@ -${oldStart}${oldLines === 1 ? '' : `,${oldLines}`} +${newStart}${newLines === 1 ? '' : `,${newLines}`} @@`,
});

describe('lspq git --json', () => {
  test('status: branch, upstream, ahead/behind, staged, unstaged, untracked', async () => {
    const out = await r.lspq(['status', '--json']);
    expect(out.exit).toBe(0);
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toEqual({
      branch: 'main',
      oid: hash.third,
      upstream: 'origin/main',
      ahead: 1,
      behind: 0,
      staged: [
        { path: NEWLINE, status: 'deleted' },
        { path: 'new name.txt', status: 'renamed', oldPath: 'old.txt' },
        { path: 'sp ace.txt', status: 'modified' },
      ],
      unstaged: [
        { path: 'bin.dat', status: 'modified' },
        { path: QUOTE, status: 'modified' },
        { path: 'sp ace.txt', status: 'modified' },
      ],
      untracked: [NEWLINE, UNTRACKED],
      conflicted: [],
      ignored: [],
    });
  });

  test('status with a pathspec and LSPQ_JSON=1 instead of --json', async () => {
    const out = await r.lspq(['status', '--', 'sp ace.txt'], { env: { LSPQ_JSON: '1' } });
    const doc = JSON.parse(out.stdout);
    expect([doc.staged, doc.unstaged, doc.untracked]).toEqual([
      [{ path: 'sp ace.txt', status: 'modified' }],
      [{ path: 'sp ace.txt', status: 'modified' }],
      [],
    ]);
  });

  test('diff: per file status, counts, hunks; binary files have no counts', async () => {
    expect(await r.json(['diff'])).toEqual({
      files: [
        { path: 'bin.dat', status: 'modified', additions: null, deletions: null, binary: true, hunks: [] },
        { path: QUOTE, status: 'modified', additions: 1, deletions: 0, binary: false, hunks: [h(1, 1, 1, 2)] },
        { path: 'sp ace.txt', status: 'modified', additions: 1, deletions: 0, binary: false, hunks: [h(1, 3, 1, 4)] },
      ],
    });
  });

  test('diff --staged: renames with oldPath, deletions, a path with a newline', async () => {
    expect(await r.json(['diff', '--staged'])).toEqual({
      files: [
        { path: NEWLINE, status: 'deleted', additions: 0, deletions: 1, binary: false, hunks: [h(1, 1, 0, 0)] },
        {
          path: 'new name.txt',
          oldPath: 'old.txt',
          status: 'renamed',
          additions: 0,
          deletions: 0,
          binary: false,
          hunks: [],
        },
        { path: 'sp ace.txt', status: 'modified', additions: 1, deletions: 0, binary: false, hunks: [h(1, 2, 1, 3)] },
      ],
    });
  });

  test('diff between commits, limited to a path', async () => {
    expect(await r.json(['diff', `${hash.first}..${hash.second}`, '--', 'ünï.txt'])).toEqual({
      files: [
        { path: 'ünï.txt', status: 'modified', additions: 1, deletions: 0, binary: false, hunks: [h(1, 1, 1, 2)] },
      ],
    });
  });

  test('log: hash, author, email, ISO date, subject, body; -n', async () => {
    expect(await r.json(['log', '-n', '2'])).toEqual({
      commits: [
        {
          hash: hash.third,
          author: 'Ann Author',
          email: 'ann@example.com',
          date: DATE,
          subject: 'third, not pushed',
          body: '',
        },
        {
          hash: hash.second,
          author: 'Ann Author',
          email: 'ann@example.com',
          date: DATE,
          subject: 'Second: with "quotes"',
          body: 'Body line 1\n\nBody line 3',
        },
      ],
    });
  });

  test('log with a range, a path, -1 and a user format (overridden)', async () => {
    const subjects = async (args: string[]) =>
      (await r.json<{ commits: Array<{ subject: string }> }>(['log', ...args])).commits.map((c) => c.subject);
    expect(await subjects(['origin/main..main'])).toEqual(['third, not pushed']);
    expect(await subjects(['--', 'ünï.txt'])).toEqual(['Second: with "quotes"', 'first']);
    expect(await subjects(['-1', '--oneline'])).toEqual(['third, not pushed']);
    expect(await subjects(['--reverse', '-z'])).toEqual(['first', 'Second: with "quotes"', 'third, not pushed']);
  });

  test('branch: current, names, upstreams; -a adds remote-tracking branches', async () => {
    expect(await r.json(['branch'])).toEqual({
      current: 'main',
      branches: [
        { name: 'feature', current: false, remote: false },
        { name: 'main', current: true, remote: false, upstream: 'origin/main' },
      ],
    });
    expect(await r.json(['branch', '-a', '-vv'])).toEqual({
      current: 'main',
      branches: [
        { name: 'feature', current: false, remote: false },
        { name: 'main', current: true, remote: false, upstream: 'origin/main' },
        { name: 'origin/main', current: false, remote: true },
      ],
    });
  });

  test('other subcommands: git output as strings, with the class', async () => {
    expect(await r.json(['rev-parse', 'HEAD'])).toEqual({
      subcommand: 'rev-parse',
      class: 'read',
      exit: 0,
      stdout: `${hash.third}\n`,
      stderr: '',
    });
    expect(await r.json(['grep', 'no such text anywhere'])).toEqual({
      subcommand: 'grep',
      class: 'read',
      exit: 1,
      stdout: '',
      stderr: '',
    });
    const grep = await r.lspq(['grep', 'no such text anywhere', '--json']);
    expect(grep.exit).toBe(1);
  });

  test('an output format that cannot go with --json is bad input', async () => {
    const out = await r.lspq(['log', '--graph', '--json']);
    expect(out.exit).toBe(2);
    expect(JSON.parse(out.stdout)).toEqual({
      error: {
        code: 'usage',
        message: "--graph does not go with --json, which picks git log's output format itself; drop one of them",
      },
    });
  });

  test("git's own failure: exit 1, its message in the JSON error and on stderr", async () => {
    const out = await r.lspq(['log', 'no-such-rev', '--json']);
    expect(out.exit).toBe(1);
    const message =
      "fatal: ambiguous argument 'no-such-rev': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'";
    expect(JSON.parse(out.stdout)).toEqual({ error: { code: 'git_failed', message } });
    expect(out.stderr).toBe(`lspq: ${message}\n`);
  });
});

describe('conflicts', () => {
  test('status lists conflicted paths; diff shows one unmerged file with its combined hunks', async () => {
    const c = new TempRepo();
    try {
      c.write('f.txt', 'a\nb\nc\n');
      c.commitAll('base');
      c.git('checkout', '-q', '-b', 'other');
      c.write('f.txt', 'a\nB\nc\n');
      c.commitAll('other');
      c.git('checkout', '-q', 'main');
      c.write('f.txt', 'a\nBB\nc\n');
      c.commitAll('main');
      expect(c.tryGit('merge', 'other').exit).toBe(1);
      const status = await c.json<{ conflicted: string[]; staged: unknown[] }>(['status']);
      expect([status.conflicted, status.staged]).toEqual([['f.txt'], []]);
      expect(await c.json(['diff'])).toEqual({
        files: [
          {
            path: 'f.txt',
            status: 'unmerged',
            additions: 4,
            deletions: 0,
            binary: false,
            hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 7, header: '@@@ -1,3 -1,3 +1,7 @@@' }],
          },
        ],
      });
    } finally {
      c.cleanup();
    }
  });

  test('an unborn branch', async () => {
    const c = new TempRepo();
    try {
      expect(await c.json(['status'])).toEqual({
        branch: 'main',
        oid: null,
        ahead: 0,
        behind: 0,
        staged: [],
        unstaged: [],
        untracked: [],
        conflicted: [],
        ignored: [],
      });
      expect(await c.json(['branch'])).toEqual({ current: null, branches: [] });
    } finally {
      c.cleanup();
    }
  });
});
