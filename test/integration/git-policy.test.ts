/** The policy end to end: refusals exit 4 and change nothing; the allow flags let each class run; git's output and errors pass through. */
import { afterEach, describe, expect, test } from 'bun:test';
import { TempRepo } from '../helpers/git-repo';

let repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

/** A repository with a pushed main, a feature branch, a modified file, an untracked file and a stash. */
function repo(): { r: TempRepo; remote: TempRepo } {
  const remote = new TempRepo('origin.git', false);
  remote.git('init', '-q', '--bare', '-b', 'main');
  const r = new TempRepo();
  repos.push(r, remote);
  r.write('a.txt', 'one\n');
  r.commitAll('first');
  r.git('branch', 'feature');
  r.git('remote', 'add', 'origin', remote.dir);
  r.git('push', '-q', '-u', 'origin', 'main', 'feature');
  r.write('a.txt', 'stashed\n');
  r.git('stash', '-q');
  r.write('a.txt', 'one\nlocal change\n');
  r.write('junk/untracked.txt', 'x\n');
  return { r, remote };
}

const DESTRUCTIVE = (what: string, because: string) =>
  `lspq: git ${what} can lose work: ${because}; add --allow-destructive to run it\n`;

describe('refusals exit 4, change nothing and name the flag that would allow them', () => {
  test('reset --hard: not with --allow-write; with --allow-destructive it runs', async () => {
    const { r } = repo();
    for (const extra of [[], ['--allow-write']]) {
      const out = await r.lspq(['reset', '--hard', ...extra]);
      expect(out).toEqual({
        exit: 4,
        stdout: '',
        stderr: DESTRUCTIVE('reset --hard', 'it throws away changes in the work tree'),
      });
      expect(r.read('a.txt')).toBe('one\nlocal change\n');
    }
    const allowed = await r.lspq(['--allow-destructive', 'reset', '--hard']);
    expect(allowed.exit).toBe(0);
    expect(r.read('a.txt')).toBe('one\n');
  });

  test('clean with combined flags (-xfd); -nd only reads', async () => {
    const { r } = repo();
    expect((await r.lspq(['clean', '-xfd'])).exit).toBe(4);
    expect(r.exists('junk/untracked.txt')).toBe(true);
    expect(await r.lspq(['clean', '-nd'])).toEqual({ exit: 0, stdout: 'Would remove junk/\n', stderr: '' });
    expect((await r.lspq(['clean', '-fd', '--allow-destructive'])).exit).toBe(0);
    expect(r.exists('junk/untracked.txt')).toBe(false);
  });

  test('checkout -- . and checkout FILE discard; checkout BRANCH switches', async () => {
    const { r } = repo();
    expect((await r.lspq(['checkout', '--', '.', '--allow-write'])).stderr).toBe(
      DESTRUCTIVE('checkout -- .', 'it overwrites files in the work tree with their committed content'),
    );
    const file = await r.lspq(['checkout', 'a.txt', '--allow-write']);
    expect(file.exit).toBe(4);
    expect(file.stderr).toContain("'a.txt' is not a branch or commit");
    expect(r.read('a.txt')).toBe('one\nlocal change\n');
    const branch = await r.lspq(['checkout', 'feature', '--allow-write']);
    expect(branch.exit).toBe(0);
    expect(branch.stderr).toBe("Switched to branch 'feature'\n");
    expect(r.git('branch', '--show-current').trim()).toBe('feature');
  });

  test('restore of work-tree files is destructive; restore --staged writes', async () => {
    const { r } = repo();
    r.git('add', 'a.txt');
    expect((await r.lspq(['restore', 'a.txt', '--allow-write'])).exit).toBe(4);
    expect((await r.lspq(['restore', '-SW', 'a.txt', '--allow-write'])).exit).toBe(4);
    expect(r.git('diff', '--cached', '--name-only')).toBe('a.txt\n');
    expect((await r.lspq(['restore', '--staged', 'a.txt'])).exit).toBe(4);
    expect((await r.lspq(['restore', '--staged', 'a.txt', '--allow-write'])).exit).toBe(0);
    expect(r.git('diff', '--cached', '--name-only')).toBe('');
    expect(r.read('a.txt')).toBe('one\nlocal change\n');
  });

  test('switch --disc (an abbreviation of --discard-changes)', async () => {
    const { r } = repo();
    const out = await r.lspq(['switch', '--disc', 'feature', '--allow-write']);
    expect(out.stderr).toBe(DESTRUCTIVE('switch --disc', 'it throws away local changes or resets a branch'));
    expect(r.git('branch', '--show-current').trim()).toBe('main');
  });

  test('branch -D, branch -f, stash drop, commit --amend', async () => {
    const { r } = repo();
    const head = r.git('rev-parse', 'HEAD');
    for (const args of [
      ['branch', '-D', 'feature'],
      ['branch', '-df', 'feature'],
      ['branch', '-f', 'feature', 'HEAD'],
      ['stash', 'drop'],
      ['commit', '--amend', '-m', 'x'],
    ]) {
      expect((await r.lspq([...args, '--allow-write'])).exit).toBe(4);
    }
    expect(r.git('branch', '--list', 'feature')).toBe('  feature\n');
    expect(r.git('stash', 'list')).toContain('stash@{0}');
    expect(r.git('rev-parse', 'HEAD')).toBe(head);
  });

  test('push --force, +refspec and :refspec; with --allow-destructive the force push happens; --forc is refused', async () => {
    const { r, remote } = repo();
    r.git('commit', '-q', '--allow-empty', '-m', 'second');
    r.git('push', '-q');
    r.git('reset', '-q', '--keep', 'HEAD~1');
    const before = remote.git('rev-parse', 'main');
    for (const args of [
      ['push', '--force', 'origin', 'main'],
      ['push', 'origin', '+main'],
      ['push', 'origin', ':feature'],
      ['push', '--delete', 'origin', 'feature'],
    ]) {
      const out = await r.lspq([...args, '--allow-write']);
      expect(out.exit).toBe(4);
      expect(out.stderr).toEndWith('; add --allow-destructive to run it\n');
    }
    expect(remote.git('rev-parse', 'main')).toBe(before);
    expect(remote.git('branch', '--list', 'feature')).toBe('  feature\n');
    // --forc is ambiguous to git 2.39 itself (force-with-lease, force-if-includes), so lspq refuses it; --force-w is not.
    const ambiguous = await r.lspq(['push', '--forc', 'origin', 'main', '--allow-destructive']);
    expect(ambiguous.exit).toBe(4);
    expect(ambiguous.stderr).toEndWith('and stops; write the option out in full\n');
    expect(remote.git('rev-parse', 'main')).toBe(before);
    expect((await r.lspq(['push', '--force-w', 'origin', 'main', '--allow-destructive'])).exit).toBe(0);
    expect(remote.git('rev-parse', 'main')).toBe(r.git('rev-parse', 'HEAD'));
  });

  test('never allowed: -c, other subcommands, --exec; as JSON too', async () => {
    const { r } = repo();
    const c = await r.lspq(['-c', 'core.pager=evil', 'log', '--allow-destructive']);
    expect(c).toEqual({
      exit: 4,
      stdout: '',
      stderr:
        'lspq: git -c is never allowed by lspq git: it sets configuration, and configuration can name programs for git to run\n',
    });
    const config = await r.lspq(['config', 'user.name', 'x', '--allow-destructive', '--json']);
    expect(config.exit).toBe(4);
    expect(JSON.parse(config.stdout).error.code).toBe('refused');
    expect(config.stderr).toStartWith(
      'lspq: git config is never allowed by lspq git: lspq git runs only status, diff, log',
    );
    expect((await r.lspq(['rebase', '-x', 'touch pwned', 'main', '--allow-destructive'])).exit).toBe(4);
    expect(r.exists('pwned')).toBe(false);
  });
});

describe('allowed calls run', () => {
  test('add and commit with --allow-write anywhere after git', async () => {
    const { r } = repo();
    expect((await r.lspq(['add', 'a.txt'])).exit).toBe(4);
    expect((await r.lspq(['--allow-write', 'add', 'a.txt'])).exit).toBe(0);
    const commit = await r.lspq(['commit', '-m', 'second', '--allow-write']);
    expect(commit.exit).toBe(0);
    expect(commit.stdout).toContain('second');
    expect(r.git('log', '-1', '--format=%s')).toBe('second\n');
  });
});

describe("git's own output and errors", () => {
  test("human output is git's own, awkward paths quoted the way git quotes them", async () => {
    const { r } = repo();
    r.write('sp ace "q".txt', 'x\n');
    expect(await r.lspq(['status', '--short'])).toEqual({
      exit: 0,
      stdout: ' M a.txt\n?? junk/\n?? "sp ace \\"q\\".txt"\n',
      stderr: '',
    });
    expect((await r.lspq(['log', '--format=%s'])).stdout).toBe('first\n');
  });

  test("a git error: exit 1, git's message on stderr as git wrote it", async () => {
    const { r } = repo();
    const out = await r.lspq(['log', 'no-such-rev']);
    expect(out.exit).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toStartWith(
      "fatal: ambiguous argument 'no-such-rev': unknown revision or path not in the working tree.\n",
    );
  });

  test('outside a repository', async () => {
    const r = new TempRepo('plain', false);
    repos.push(r);
    const out = await r.lspq(['status']);
    expect(out.exit).toBe(1);
    expect(out.stderr).toStartWith('fatal: not a git repository');
  });

  test("usage: no subcommand is bad input; --help is lspq's; -h after a subcommand is git's short usage", async () => {
    const { r } = repo();
    const none = await r.lspq([]);
    expect(none.exit).toBe(2);
    expect(none.stderr).toBe(
      "lspq: missing git subcommand: write 'lspq git status' (see 'lspq git --help' for the policy)\n",
    );
    const help = await r.lspq(['log', '--help']);
    expect(help.exit).toBe(0);
    expect(help.stdout).toStartWith('lspq git: git for agents');
    const short = await r.lspq(['status', '-h']);
    expect(short.stdout).toStartWith('usage: git status');
  });
});
