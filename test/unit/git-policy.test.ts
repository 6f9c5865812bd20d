import { describe, expect, test } from 'bun:test';
import { plan, probeNames, refusal } from '../../src/git/policy';
import type { ConfigEntry, GitClass } from '../../src/git/types';

const NO_FACTS = { commits: new Set<string>(), config: [] as ConfigEntry[] };
const words = (line: string): string[] => line.split(' ').filter(Boolean);
const classOf = (line: string, facts = NO_FACTS): GitClass => plan(words(line), facts).verdict.cls;

function expectClasses(cases: Array<[string, GitClass]>): void {
  for (const [line, cls] of cases) {
    test(`${line} → ${cls}`, () => expect(classOf(line)).toBe(cls));
  }
}

describe('read commands', () => {
  expectClasses([
    ['status', 'read'],
    ['status -sb --porcelain=v2', 'read'],
    ['diff --staged --stat', 'read'],
    ['diff --text', 'read'],
    ['diff --no-textconv --no-ext-diff', 'read'],
    ['log -n 3 --oneline -- src', 'read'],
    ['show HEAD~1', 'read'],
    ['branch', 'read'],
    ['branch -a -vv', 'read'],
    ['branch --list feat*', 'read'],
    ['branch --contains HEAD', 'read'],
    ['branch -f', 'read'],
    ['branch --show-current', 'read'],
    ['remote', 'read'],
    ['remote -v', 'read'],
    ['remote show -n origin', 'read'],
    ['remote get-url origin', 'read'],
    ['fetch', 'read'],
    ['fetch origin main --prune', 'read'],
    ['fetch origin refs/heads/main:', 'read'],
    ['stash list', 'read'],
    ['stash show -p stash@{1}', 'read'],
    ['blame -L 1,2 file', 'read'],
    ['rev-parse --show-toplevel', 'read'],
    ['ls-files -z', 'read'],
    ['grep -n -e foo', 'read'],
    ['describe --tags', 'read'],
    ['tag', 'read'],
    ['tag -l v*', 'read'],
    ['tag -n5 --contains HEAD', 'read'],
    ['tag -v v1', 'read'],
    ['shortlog -sn', 'read'],
    ['clean -n', 'read'],
    ['clean -nd', 'read'],
    ['--no-pager log', 'read'],
    ['--literal-pathspecs -P status', 'read'],
  ]);
});

describe('write commands', () => {
  expectClasses([
    ['add .', 'write'],
    ['add -f ignored.txt', 'write'],
    ['commit -m msg', 'write'],
    ['commit -am msg', 'write'],
    ['commit --fixup=amend:HEAD', 'write'],
    ['switch main', 'write'],
    ['switch -c feature', 'write'],
    ['checkout -b feature', 'write'],
    ['restore --staged file', 'write'],
    ['restore -S file', 'write'],
    ['reset HEAD~1', 'write'],
    ['reset --soft HEAD~1', 'write'],
    ['reset --keep HEAD~1', 'write'],
    ['merge feature', 'write'],
    ['merge --continue', 'write'],
    ['rebase main', 'write'],
    ['rebase -i main', 'write'],
    ['cherry-pick abc123 -x', 'write'],
    ['revert HEAD', 'write'],
    ['stash', 'write'],
    ['stash -u', 'write'],
    ['stash push -m wip', 'write'],
    ['stash pop', 'write'],
    ['stash apply --index', 'write'],
    ['tag v1', 'write'],
    ['tag -a v1 -m release', 'write'],
    ['branch feature', 'write'],
    ['branch feature main', 'write'],
    ['branch -d feature', 'write'],
    ['branch --del feature', 'write'],
    ['branch -m old new', 'write'],
    ['branch -u origin/main', 'write'],
    ['pull', 'write'],
    ['pull --rebase origin main', 'write'],
    ['push', 'write'],
    ['push -u origin feature', 'write'],
    ['push origin main:main', 'write'],
    ['push origin tag v1', 'write'],
    ['push --no-force origin main', 'write'],
    ['fetch origin main:main', 'write'],
  ]);
});

describe('destructive commands', () => {
  expectClasses([
    ['push --force', 'destructive'],
    ['push -f origin main', 'destructive'],
    ['push --force origin main', 'destructive'],
    ['push --force-w origin main', 'destructive'],
    ['push --force-with-lease=main:abc origin main', 'destructive'],
    ['push --force-if-includes', 'destructive'],
    ['push --mirror', 'destructive'],
    ['push --delete origin feature', 'destructive'],
    ['push -d origin feature', 'destructive'],
    ['push --prune origin', 'destructive'],
    ['push origin +main', 'destructive'],
    ['push origin +main:main', 'destructive'],
    ['push origin :feature', 'destructive'],
    ['push -vf', 'destructive'],
    ['reset --hard', 'destructive'],
    ['reset --ha HEAD~1', 'destructive'],
    ['reset --merge', 'destructive'],
    ['reset --merg', 'destructive'],
    ['clean -f', 'destructive'],
    ['clean -fd', 'destructive'],
    ['clean -df', 'destructive'],
    ['clean -xfd', 'destructive'],
    ['clean', 'destructive'],
    ['clean -i', 'destructive'],
    ['clean -ni', 'destructive'],
    ['branch -D feature', 'destructive'],
    ['branch -d -f feature', 'destructive'],
    ['branch -df feature', 'destructive'],
    ['branch --delete --force feature', 'destructive'],
    ['branch -f feature HEAD~2', 'destructive'],
    ['branch --forc feature HEAD~2', 'destructive'],
    ['branch -M old new', 'destructive'],
    ['branch -m -f old new', 'destructive'],
    ['branch -C a b', 'destructive'],
    ['checkout -- .', 'destructive'],
    ['checkout -- file.txt', 'destructive'],
    ['checkout HEAD -- file.txt', 'destructive'],
    ['checkout file.txt', 'destructive'],
    ['checkout HEAD~1 file.txt', 'destructive'],
    ['checkout -f main', 'destructive'],
    ['checkout --forc main', 'destructive'],
    ['checkout -B main', 'destructive'],
    ['checkout -p', 'destructive'],
    ['checkout --pathspec-from-file=list', 'destructive'],
    ['restore file.txt', 'destructive'],
    ['restore .', 'destructive'],
    ['restore --worktree file.txt', 'destructive'],
    ['restore -SW file.txt', 'destructive'],
    ['restore --staged --worktree file.txt', 'destructive'],
    ['restore --source HEAD~1 file.txt', 'destructive'],
    ['switch --discard-changes main', 'destructive'],
    ['switch --disc main', 'destructive'],
    ['switch -f main', 'destructive'],
    ['switch -C main', 'destructive'],
    ['commit --amend', 'destructive'],
    ['commit --amend --no-edit', 'destructive'],
    ['commit --am -m x', 'destructive'],
    ['commit --amen', 'destructive'],
    ['stash drop', 'destructive'],
    ['stash drop stash@{0}', 'destructive'],
    ['stash clear', 'destructive'],
    ['tag -d v1', 'destructive'],
    ['tag -f v1', 'destructive'],
    ['merge --abort', 'destructive'],
    ['rebase --abort', 'destructive'],
    ['rebase --skip', 'destructive'],
    ['cherry-pick --abort', 'destructive'],
    ['revert --skip', 'destructive'],
    ['pull --force', 'destructive'],
    ['pull origin +main:main', 'destructive'],
    ['fetch --force', 'destructive'],
    ['fetch -u origin main:main', 'destructive'],
    ['fetch origin +main:main', 'destructive'],
    ['fetch --prune origin refs/heads/*:refs/heads/*', 'destructive'],
  ]);
});

describe('refused', () => {
  expectClasses([
    ['config --list', 'refused'],
    ['gc', 'refused'],
    ['filter-branch', 'refused'],
    ['st', 'refused'],
    ['help log', 'refused'],
    ['-c core.pager=evil log', 'refused'],
    ['-ccore.pager=evil log', 'refused'],
    ['--config-env=core.pager=EVIL log', 'refused'],
    ['--exec-path=/tmp status', 'refused'],
    ['--exec-path', 'refused'],
    ['-C /tmp status', 'refused'],
    ['--git-dir=/tmp/x status', 'refused'],
    ['--work-tree=/ status', 'refused'],
    ['-p log', 'refused'],
    ['--paginate log', 'refused'],
    ['--frobnicate status', 'refused'],
    ['fetch --upload-pack=evil origin', 'refused'],
    ['fetch --upload-pack evil origin', 'refused'],
    ['fetch --upl=evil origin', 'refused'],
    ['fetch ext::sh', 'refused'],
    ['fetch --recurse-submodules', 'refused'],
    ['fetch --recurse-submodules=yes', 'refused'],
    ['pull --upload-pack=evil', 'refused'],
    ['push --receive-pack=evil', 'refused'],
    ['push --exec=evil', 'refused'],
    ['push --repo=ext::sh', 'refused'],
    ['rebase --exec make main', 'refused'],
    ['rebase -x make main', 'refused'],
    ['rebase -ix make main', 'refused'],
    ['rebase --exe=make main', 'refused'],
    ['log --output=/tmp/x', 'refused'],
    ['log --out=/tmp/x', 'refused'],
    ['diff --output /tmp/x', 'refused'],
    ['diff --ext-diff', 'refused'],
    ['diff --ext', 'refused'],
    ['diff --textconv', 'refused'],
    ['show --textc HEAD', 'refused'],
    ['log -p --ext-diff', 'refused'],
    ['blame --textconv file', 'refused'],
    ['grep -O foo', 'refused'],
    ['grep -iO foo', 'refused'],
    ['grep --open-files-in-pager=vi foo', 'refused'],
    ['grep --open foo', 'refused'],
    ['status --ignore-submodules=none', 'refused'],
    ['status --ignore-sub=untracked', 'refused'],
    ['diff --submodule=diff', 'refused'],
    ['stash list --output=x', 'refused'],
    ['remote add evil ext::sh', 'refused'],
    ['remote set-url origin x', 'refused'],
    ['remote -v update', 'refused'],
    ['stash frobnicate', 'refused'],
    // git itself stops on these: an ambiguous abbreviation, an option it does not have.
    ['push --forc origin main', 'refused'],
    ['reset --m', 'refused'],
    ['push origin main --frobnicate', 'refused'],
  ]);
});

describe('grammar details', () => {
  test('-am is --all --message, not --amend', () => expect(classOf('commit -am amend')).toBe('write'));
  test('a message that reads like an option is a value', () => expect(classOf('commit -m --amend')).toBe('write'));
  test('--no-force-with-lease negates', () => expect(classOf('push --no-force-with-lease')).toBe('write'));
  test('grep -e takes O as its pattern', () => expect(classOf('grep -eO')).toBe('read'));
  test('options after positionals count (git permutes)', () =>
    expect(classOf('push origin main --force')).toBe('destructive'));
  test('a path named like an option after -- is refused all the same (stricter)', () =>
    expect(classOf('log -- --output=x')).toBe('refused'));

  test('checkout NAME writes when NAME is a commit, else overwrites a file', () => {
    expect(probeNames(['checkout', 'main'])).toEqual(['main']);
    expect(probeNames(['checkout', '-b', 'x'])).toEqual([]);
    expect(classOf('checkout main', { commits: new Set(['main']), config: [] })).toBe('write');
    expect(classOf('checkout main', NO_FACTS)).toBe('destructive');
    expect(classOf('checkout main --', NO_FACTS)).toBe('write');
    expect(classOf('checkout -', NO_FACTS)).toBe('write');
  });

  test('push to a remote configured as a mirror or with a forcing refspec is destructive', () => {
    const mirror = {
      commits: new Set<string>(),
      config: [{ scope: 'local', key: 'remote.backup.mirror', value: 'true' }],
    };
    expect(classOf('push backup', mirror)).toBe('destructive');
    expect(classOf('push', mirror)).toBe('destructive');
    expect(classOf('push origin', mirror)).toBe('write');
    const forcing = {
      commits: new Set<string>(),
      config: [{ scope: 'local', key: 'remote.origin.push', value: '+refs/heads/*:refs/heads/*' }],
    };
    expect(classOf('push origin', forcing)).toBe('destructive');
  });

  test('a repository-set uploadpack: fetch overrides it, what cannot is refused', () => {
    const hostile = {
      commits: new Set<string>(),
      config: [{ scope: 'local', key: 'remote.up.uploadpack', value: '/evil' }],
    };
    expect(plan(['fetch', 'up'], hostile).inject).toEqual(['--upload-pack=git-upload-pack']);
    expect(plan(['fetch', 'up'], hostile).verdict.cls).toBe('read');
    expect(plan(['fetch', 'up'], NO_FACTS).inject).toEqual([]);
    expect(classOf('fetch --all', hostile)).toBe('refused');
    expect(classOf('remote show up', hostile)).toBe('refused');
    expect(classOf('remote show -n up', hostile)).toBe('read');
    const mine = {
      commits: new Set<string>(),
      config: [{ scope: 'global', key: 'remote.up.uploadpack', value: '/mine' }],
    };
    expect(classOf('fetch --all', mine)).toBe('read');
  });

  test('JSON kinds', () => {
    expect(plan(['status'], NO_FACTS).json).toBe('status');
    expect(plan(['branch', '-a'], NO_FACTS).json).toBe('branch');
    expect(plan(['branch', 'new'], NO_FACTS).json).toBe('none');
    expect(plan(['stash', 'list'], NO_FACTS).json).toBe('none');
  });
});

describe('refusal messages', () => {
  const message = (line: string, w = false, d = false) => refusal(plan(words(line), NO_FACTS).verdict, w, d);
  test('write names --allow-write', () =>
    expect(message('commit -m x')).toBe('git commit changes the repository; add --allow-write to run it'));
  test('write runs with either flag', () => {
    expect(message('commit -m x', true)).toBeUndefined();
    expect(message('commit -m x', false, true)).toBeUndefined();
  });
  test('destructive names the option as written and --allow-destructive', () => {
    expect(message('push --forc', true)).toBe(
      'git push --forc is never allowed by lspq git: git reads it as an abbreviation of both --force-with-lease and --force-if-includes and stops; write the option out in full',
    );
    expect(message('push --for', true)).toBe(message('push --forc', true)?.replaceAll('--forc ', '--for '));
    expect(message('push -f', true)).toBe(
      'git push -f can lose work: it can overwrite or delete refs on the remote; add --allow-destructive to run it',
    );
    expect(message('push -f', false, true)).toBeUndefined();
  });
  test('refused says never', () => {
    expect(message('-c a=b status', true, true)).toBe(
      'git -c is never allowed by lspq git: it sets configuration, and configuration can name programs for git to run',
    );
    expect(message('rebase -x make', true, true)).toBe(
      'git rebase -x is never allowed by lspq git: it runs a command of your choosing',
    );
  });
});

/**
 * Argument lists shaped to slip past a policy that reads options otherwise
 * than git's parse-options. Each was let through (or misclassed) before the
 * grammar read options as git does; the class here is what git then does.
 */
describe('options as git reads them', () => {
  expectClasses([
    // The last of --x / --no-x wins.
    ['clean -n --no-dry-run -f', 'destructive'],
    ['clean --dry-run --no-dry-run -f', 'destructive'],
    ['clean -n --no-d -f', 'destructive'],
    ['branch --list --no-list -f x', 'destructive'],
    ['tag -l --no-list v9', 'refused'],
    ['reset --hard --no-hard', 'write'],
    ['reset --soft --hard', 'destructive'],
    ['reset --hard --soft', 'write'],
    ['commit --amend --no-amend -m x', 'write'],
    ['push --force --no-force', 'write'],
    ['restore --worktree --no-worktree --staged a.txt', 'write'],
    ['fetch --recurse-submodules=no --recurse-submodules', 'refused'],
    ['fetch --recurse-submodules=yes --recurse-submodules=no', 'read'],
    // An option declared no-x: --x is its negation.
    ['push --no-verify --verify', 'write'],
    // Unique prefixes are the option; ambiguous ones stop git.
    ['clean --dry', 'read'],
    ['clean --for', 'destructive'],
    ['clean --dry --for', 'read'],
    ['branch --for x', 'refused'],
    ['branch --forc x', 'destructive'],
    ['push --for', 'refused'],
    ['push --ver', 'refused'],
    ['clean --no', 'refused'],
    // Bundles, and a value-taking letter that takes the rest of its word.
    ['clean -nf', 'read'],
    ['clean -fn', 'read'],
    ['clean -fdx', 'destructive'],
    ['clean -fe', 'refused'],
    ['clean -fen', 'destructive'],
    ['clean -ennf', 'destructive'],
    ['clean -e n', 'destructive'],
    ['clean -for', 'refused'],
    ['tag -mmsg v9', 'write'],
    ['tag -fmmsg v9', 'destructive'],
    ['tag -mf v9', 'write'],
    // What the command sees after --, and --end-of-options.
    ['branch -- newb', 'write'],
    ['branch -v -f x main', 'destructive'],
    ['tag -- v9', 'write'],
    ['push origin -- +main', 'destructive'],
    ['push origin -- :feature', 'destructive'],
    ['fetch origin -- +main:main', 'destructive'],
    ['clean --end-of-options -f', 'destructive'],
    ['clean -n --end-of-options -f', 'read'],
    ['checkout --end-of-options a.txt', 'refused'],
    // Values in the next word, or attached.
    ['branch --contains -f', 'read'],
    ['branch --merged', 'read'],
    ['tag --points-at HEAD', 'read'],
    ['push --repo origin --force', 'destructive'],
    ['push --repo=--force origin', 'write'],
    // Where git stops, lspq refuses.
    ['clean --no-dry-run=x -n', 'refused'],
    ['clean --no-exclude', 'refused'],
    ['tag -l -d v1', 'refused'],
    ['rebase --abort --skip', 'refused'],
    ['branch -d -m x', 'refused'],
    ['cherry-pick --abo', 'refused'],
  ]);
});
