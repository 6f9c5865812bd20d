/**
 * The policy against git itself, on generated argument lists: for each
 * subcommand whose class depends on its options, seeded random words are
 * built from its option table (full names, prefixes, `--no-` forms, short
 * bundles, values attached or apart, `--`, `--end-of-options`) and from
 * names in a fixture repository. Every list the policy lets run (read, or
 * write with --allow-write) is run by real git, as lspq would run it, in a
 * fresh copy of the repository; then a read must have changed nothing, and
 * a write must have lost nothing (no uncommitted file, commit, tag or
 * remote commit gone). Runs in-process, without dist/lspq.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { nameOf, type OptionSpec } from '../../src/git/grammar';
import { colorConfig, gitArgv, gitEnv } from '../../src/git/invocation';
import { neutralize } from '../../src/git/neutralize';
import { parseConfigList } from '../../src/git/parse-config';
import { plan, probeNames } from '../../src/git/policy';
import { OPTIONS } from '../../src/git/tables';
import type { GitClass, GitFacts, Plan } from '../../src/git/types';
import { TempRepo } from '../helpers/git-repo';
import { seeded } from '../helpers/seeded-random';

const CASES_PER_COMMAND = Number(process.env.LSPQ_GIT_OPTION_CASES ?? 200);

/** The words each subcommand is given besides its options: names in the fixture, refspecs, paths. */
const NAMES: Record<string, string[]> = {
  clean: ['u.txt', 'junk', '.', 'ig.log'],
  branch: ['main', 'feature', 'merged', 'newb', 'HEAD~1', 'origin/main', 'v1'],
  tag: ['v1', 'v2', 'v9', 'HEAD', 'main', 'HEAD~1'],
  'stash push': ['a.txt', 'dir', 'wip'],
  'stash pop': ['stash@{0}', 'stash@{1}'],
  'stash apply': ['stash@{0}', 'stash@{1}'],
  'stash drop': ['stash@{0}', 'stash@{1}'],
  checkout: ['main', 'feature', 'newb', 'HEAD~1', 'a.txt', 'dir', '.', 'origin/feature', '-'],
  switch: ['main', 'feature', 'newb', 'HEAD~1', 'origin/feature', '-'],
  restore: ['a.txt', 'b.txt', 'dir', '.', 'u.txt', 'HEAD~1'],
  reset: ['HEAD', 'HEAD~1', 'main', 'feature', 'a.txt', 'b.txt'],
  push: [
    'origin',
    'main',
    'feature',
    '+main',
    '+feature',
    'main:main',
    ':feature',
    'main:newb',
    'HEAD~1:feature',
    'tag',
    'v1',
  ],
  fetch: [
    'origin',
    'main',
    'feature',
    'main:main',
    '+main:main',
    'feature:newb',
    '+feature:main',
    'main:',
    'v1',
    'tag',
  ],
};

/** Values for options that take one: names, and words that look like options. */
const VALUES = [
  'x',
  'main',
  'HEAD',
  'origin',
  'no',
  'u.txt',
  '-f',
  '--force',
  '-n',
  '--dry-run',
  'refs/heads/*:refs/heads/*',
];

/** The options each rule decides by: drawn three times as often, and given with their own --no- in the same list. */
const DECISIVE: Record<string, string[]> = {
  clean: ['dry-run', 'force', 'interactive'],
  branch: ['list', 'force', 'delete', 'D', 'move', 'M', 'copy', 'C', 'verbose', 'show-current', 'contains', 'merged'],
  tag: ['list', 'delete', 'verify', 'force', 'n', 'contains'],
  'stash push': ['keep-index', 'include-untracked', 'all', 'staged', 'message'],
  'stash pop': ['index', 'quiet'],
  'stash apply': ['index', 'quiet'],
  'stash drop': ['quiet'],
  checkout: ['force', 'B', 'b', 'patch', 'orphan', 'detach', 'merge', 'ours'],
  switch: ['force', 'force-create', 'discard-changes', 'create', 'detach', 'merge'],
  restore: ['staged', 'worktree', 'source', 'patch'],
  reset: ['hard', 'soft', 'mixed', 'merge', 'keep', 'patch'],
  push: ['force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune', 'dry-run', 'all', 'tags'],
  fetch: [
    'force',
    'prune',
    'prune-tags',
    'update-head-ok',
    'refmap',
    'dry-run',
    'all',
    'multiple',
    'depth',
    'unshallow',
  ],
};

/** Options left out: they start gpg, which may wait for an agent. */
const SKIPPED = new Set(['sign', 'local-user', 'gpg-sign', 'signed']);

/** How each subcommand is written before its words. */
const COMMAND_WORDS: Record<string, string[]> = {
  'stash push': ['stash', 'push'],
  'stash pop': ['stash', 'pop'],
  'stash apply': ['stash', 'apply'],
  'stash drop': ['stash', 'drop'],
};

type Random = () => number;
const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;

/** One spelling of an option as a user (or an attacker) might write it. */
function spelling(rnd: Random, spec: OptionSpec, specs: readonly OptionSpec[]): string[] {
  const long = spec.long;
  const forms: Array<() => string[]> = [];
  if (spec.short) {
    forms.push(() => [`-${spec.short}`]);
    const flags = specs.filter((s) => s.short && s.arity === 'none' && !SKIPPED.has(nameOf(s)));
    // A bundle: letters that take nothing, then this one (which may take the rest of the word).
    forms.push(() => [`-${pick(rnd, flags)?.short ?? ''}${pick(rnd, flags)?.short ?? ''}${spec.short}`]);
    if (spec.arity !== 'none') forms.push(() => [`-${spec.short}${pick(rnd, VALUES)}`]);
  }
  if (long) {
    const prefix = (): string => long.slice(0, 1 + Math.floor(rnd() * long.length));
    forms.push(
      () => [`--${long}`],
      () => [`--${prefix()}`],
      () => [`--no-${long}`],
      () => [`--no-${prefix()}`],
    );
    if (long.startsWith('no-')) forms.push(() => [`--${long.slice(3)}`]);
    if (spec.arity !== 'none')
      forms.push(
        () => [`--${long}=${pick(rnd, VALUES)}`],
        () => [`--${prefix()}=${pick(rnd, VALUES)}`],
      );
  }
  const words = pick(rnd, forms)();
  // A value in the next word, for options that take one that way (and for those that do not: it is then a name).
  if (spec.arity !== 'none' && rnd() < 0.5) words.push(pick(rnd, VALUES));
  return words;
}

/** A negation of the option, as git would read one: `--no-` of its name or of a prefix, or the name of a `no-` option. */
function negation(rnd: Random, spec: OptionSpec): string[] {
  const long = spec.long;
  if (!long) return [];
  if (long.startsWith('no-')) return [`--${long.slice(3, 4 + Math.floor(rnd() * (long.length - 3)))}`];
  return [`--no-${long.slice(0, 1 + Math.floor(rnd() * long.length))}`];
}

function argumentList(rnd: Random, key: string): string[] {
  const specs = (OPTIONS[key]?.specs ?? []).filter((s) => !SKIPPED.has(nameOf(s)));
  const decisive = specs.filter((s) => DECISIVE[key]?.includes(nameOf(s)));
  const draw = (): OptionSpec => pick(rnd, rnd() < 0.75 && decisive.length > 0 ? decisive : specs);
  const names = NAMES[key] ?? [];
  const words: string[] = [];
  const length = 1 + Math.floor(rnd() * 6);
  for (let n = 0; n < length; n++) {
    const r = rnd();
    if (r < 0.35 && specs.length > 0) {
      // An option and its negation, in either order: the last one is what git acts on.
      const spec = draw();
      const both = [spelling(rnd, spec, specs), negation(rnd, spec)];
      if (rnd() < 0.5) both.reverse();
      words.push(...both.flat());
    } else if (r < 0.7 && specs.length > 0) words.push(...spelling(rnd, draw(), specs));
    else if (r < 0.76) words.push(pick(rnd, ['--', '--end-of-options']));
    else if (names.length > 0) words.push(pick(rnd, names));
  }
  return [...(COMMAND_WORDS[key] ?? [key]), ...words];
}

/** The fixture: pushed main and feature, a stale remote-tracking ref, tags, two stashes, staged, unstaged, untracked and ignored files. */
function fixture(): TempRepo {
  const t = new TempRepo('repo');
  t.git('init', '-q', '--bare', '-b', 'main', join(t.base, 'origin.git'));
  t.write('.gitignore', '*.log\n');
  t.write('a.txt', 'a1\n');
  t.write('b.txt', 'b1\n');
  t.write('dir/c.txt', 'c1\n');
  t.commitAll('first');
  t.git('branch', 'merged');
  t.write('a.txt', 'a2\n');
  t.commitAll('second');
  t.git('tag', 'v1');
  t.git('tag', '-a', 'v2', '-m', 'two', 'HEAD~1');
  t.git('switch', '-q', '-c', 'feature');
  t.write('f.txt', 'f\n');
  t.commitAll('feature work');
  t.git('switch', '-q', 'main');
  t.git('remote', 'add', 'origin', '../origin.git');
  t.git('push', '-q', '-u', 'origin', 'main', 'feature');
  t.git('update-ref', 'refs/remotes/origin/gone', 'HEAD~1');
  t.write('dir/c.txt', 'stashed once\n');
  t.git('stash', '-q');
  t.write('dir/c.txt', 'stashed twice\n');
  t.git('stash', '-q');
  t.write('a.txt', 'a2\nunstaged work\n');
  t.write('b.txt', 'b1\nstaged work\n');
  t.git('add', 'b.txt');
  t.write('u.txt', 'untracked work\n');
  t.write('junk/x.txt', 'untracked dir\n');
  t.write('ig.log', 'ignored\n');
  t.write('list.txt', 'a.txt\n');
  // Fewer files to copy per case.
  t.git('gc', '-q');
  for (const d of [t.dir, join(t.base, 'origin.git')])
    rmSync(join(d, d === t.dir ? '.git/hooks' : 'hooks'), { recursive: true });
  return t;
}

function files(root: string, dir = root, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (dir === root && name === '.git') continue;
    if (statSync(path).isDirectory()) files(root, path, out);
    else out.set(relative(root, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
  }
  return out;
}

interface Snapshot {
  files: Map<string, string>;
  index: string;
  refs: string;
  head: string;
  stashLog: string;
  config: string;
  shallow: boolean;
  remoteRefs: string;
}

function snapshot(t: TempRepo, dir: string): Snapshot {
  const git = (...args: string[]): string => t.gitIn(dir, ...args);
  const remote = join(dir, '..', 'origin.git');
  const stashLog = join(dir, '.git', 'logs', 'refs', 'stash');
  return {
    files: files(dir),
    index: git('ls-files', '-s'),
    refs: git('for-each-ref', '--format=%(refname) %(objectname)'),
    head: readFileSync(join(dir, '.git', 'HEAD'), 'utf8'),
    stashLog: existsSync(stashLog) ? readFileSync(stashLog, 'utf8') : '',
    config: readFileSync(join(dir, '.git', 'config'), 'utf8'),
    shallow: existsSync(join(dir, '.git', 'shallow')),
    remoteRefs: t.gitIn(remote, 'for-each-ref', '--format=%(refname) %(objectname)'),
  };
}

const lines = (text: string): string[] => text.split('\n').filter(Boolean);
const refsUnder = (refs: string, prefix: string): string[] => lines(refs).filter((l) => l.startsWith(prefix));
const reachable = (t: TempRepo, dir: string, ...args: string[]): Set<string> =>
  new Set(lines(t.gitIn(dir, 'rev-list', ...args)));

/** What a read may not change (fetch refreshes remote-tracking and --prefetch refs, caches the policy counts as reading). */
function readProblems(key: string, before: Snapshot, after: Snapshot): string[] {
  const strip = (refs: string): string =>
    key === 'fetch'
      ? lines(refs)
          .filter((l) => !/^refs\/(remotes|prefetch)\//.test(l))
          .join('\n')
      : refs;
  const problems: string[] = [];
  const { files: beforeFiles, ...beforeRest } = before;
  const { files: afterFiles, ...afterRest } = after;
  if (JSON.stringify([...beforeFiles]) !== JSON.stringify([...afterFiles])) problems.push('work tree changed');
  for (const field of Object.keys(beforeRest) as Array<keyof typeof beforeRest>) {
    const same = field === 'refs' ? strip(before.refs) === strip(after.refs) : beforeRest[field] === afterRest[field];
    if (!same) problems.push(`${field} changed`);
  }
  return problems;
}

/** What a write may not lose: uncommitted files (unless stashed), commits, tags, the remote's commits. */
function writeProblems(
  t: TempRepo,
  dir: string,
  key: string,
  before: Snapshot,
  after: Snapshot,
  work: ReadonlyMap<string, string>,
): string[] {
  const problems: string[] = [];
  const stashed = after.stashLog.length > before.stashLog.length;
  if (!stashed)
    for (const [path, hash] of work) if (after.files.get(path) !== hash) problems.push(`uncommitted ${path} lost`);
  const commitsBefore = key === 'stash pop' ? COMMITTED : EVERY_COMMIT;
  const commitsAfter = reachable(t, dir, '--all', '--reflog');
  for (const c of commitsBefore) if (!commitsAfter.has(c)) problems.push(`commit ${c.slice(0, 8)} lost`);
  const tagsAfter = new Set(refsUnder(after.refs, 'refs/tags/'));
  for (const tag of refsUnder(before.refs, 'refs/tags/'))
    if (!tagsAfter.has(tag)) problems.push(`tag ${tag} moved or gone`);
  const remote = join(dir, '..', 'origin.git');
  const remoteAfter = reachable(t, remote, '--all');
  for (const c of REMOTE_COMMITS) if (!remoteAfter.has(c)) problems.push(`remote commit ${c.slice(0, 8)} lost`);
  return problems;
}

const TEMPLATE = fixture();
const BEFORE = snapshot(TEMPLATE, TEMPLATE.dir);
/** Files whose content no commit holds: untracked, ignored, or changed since HEAD. */
const WORK = new Map(
  lines(TEMPLATE.git('status', '--porcelain', '--ignored', '--untracked-files=all'))
    .map((l) => l.slice(3))
    .map((path) => [path, BEFORE.files.get(path) ?? ''] as const),
);
/** Commits the fixture holds: from every ref and reflog, from branches, tags and remote-tracking refs only (a pop drops its stash), and on the remote. */
const EVERY_COMMIT = reachable(TEMPLATE, TEMPLATE.dir, '--all', '--reflog');
const COMMITTED = reachable(TEMPLATE, TEMPLATE.dir, '--branches', '--tags', '--remotes');
const REMOTE_COMMITS = reachable(TEMPLATE, join(TEMPLATE.base, 'origin.git'), '--all');
/** Cases run in copies on a memory file system where there is one: a copy on disk costs ten times more. */
const SCRATCH = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lspq-git-options-'));
cpSync(TEMPLATE.dir, join(SCRATCH, 'template', 'repo'), { recursive: true });
cpSync(join(TEMPLATE.base, 'origin.git'), join(SCRATCH, 'template', 'origin.git'), { recursive: true });
const FACTS_CONFIG = parseConfigList(TEMPLATE.git('config', '--list', '--show-scope', '-z'));
let copies = 0;

function factsFor(words: readonly string[]): GitFacts {
  const commits = new Set<string>();
  for (const name of probeNames(words)) {
    const r = Bun.spawnSync(['git', 'rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`], {
      cwd: TEMPLATE.dir,
      env: TEMPLATE.env(),
      stdin: 'ignore',
    });
    if (r.exitCode === 0) commits.add(name);
  }
  return { commits, config: FACTS_CONFIG };
}

/** Runs a planned call as lspq does (its argv, its neutralised environment) in a fresh copy of the fixture. */
function runCopy(p: Plan): { dir: string; exit: number | null } {
  const base = join(SCRATCH, 'case');
  rmSync(base, { recursive: true, force: true });
  cpSync(join(SCRATCH, 'template'), base, { recursive: true });
  copies++;
  const dir = join(base, 'repo');
  const env = TEMPLATE.env();
  const run = Bun.spawnSync(['git', ...gitArgv(p)], {
    cwd: dir,
    env: gitEnv(env, neutralize(FACTS_CONFIG, p.verdict.cls, env), colorConfig(false)),
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'ignore',
    timeout: 10_000,
  });
  return { dir, exit: run.exitCode };
}

const tally: Record<GitClass, number> = { read: 0, write: 0, destructive: 0, refused: 0 };

afterAll(() => {
  console.log(`git-options: ${JSON.stringify(tally)}; ${copies} run by git, each in a fresh copy`);
  TEMPLATE.cleanup();
  rmSync(SCRATCH, { recursive: true, force: true });
});

/** The shapes that slipped through before options were read as git reads them: each run by git whatever the verdict. */
const NAMED = [
  'clean -n --no-dry-run -f',
  'clean --dry-run --no-d -f',
  'clean -n --no-dry-run -fdx',
  'branch --list --no-list -f feature',
  'branch -v -f feature main',
  'branch -- newb',
  'tag -- v9',
  'tag -l --no-list v9',
  'reset --soft --hard',
  'push origin -- +HEAD~1:feature',
  'push origin -- :feature',
  'push --force --no-force origin HEAD~1:feature',
  'stash -- a.txt',
];

const RANK: Record<GitClass, number> = { read: 0, write: 1, destructive: 2, refused: 3 };

describe('the named shapes, run by git whatever the policy says', () => {
  for (const line of NAMED) {
    test(line, () => {
      const words = line.split(' ');
      const p = plan(words, factsFor(words));
      if (p.verdict.cls === 'refused') return;
      const { dir } = runCopy(p);
      const after = snapshot(TEMPLATE, dir);
      const key = words[0] === 'stash' ? 'stash push' : (words[0] as string);
      // What git did: nothing (a read), nothing lost (a write), or something lost.
      const did: GitClass =
        readProblems(key, BEFORE, after).length === 0
          ? 'read'
          : writeProblems(TEMPLATE, dir, key, BEFORE, after, WORK).length === 0
            ? 'write'
            : 'destructive';
      expect({ line, verdict: p.verdict.cls, atLeast: RANK[p.verdict.cls] >= RANK[did] }).toEqual({
        line,
        verdict: p.verdict.cls,
        atLeast: true,
      });
    });
  }
});

const KEYS = [
  'clean',
  'branch',
  'tag',
  'stash push',
  'stash pop',
  'stash apply',
  'stash drop',
  'checkout',
  'switch',
  'restore',
  'reset',
  'push',
  'fetch',
];

describe('what git does with the argument lists the policy lets run', () => {
  for (const [n, key] of KEYS.entries()) {
    test(`${key}: ${CASES_PER_COMMAND} generated argument lists`, () => {
      const rnd = seeded(0x5eed + n);
      const failures: string[] = [];
      for (let c = 0; c < CASES_PER_COMMAND; c++) {
        const words = argumentList(rnd, key);
        const p = plan(words, factsFor(words));
        tally[p.verdict.cls]++;
        if (p.verdict.cls !== 'read' && p.verdict.cls !== 'write') continue;
        const { dir, exit } = runCopy(p);
        if (exit === null) failures.push(`${words.join(' ')}: git ran past 10 s`);
        const after = snapshot(TEMPLATE, dir);
        const problems =
          p.verdict.cls === 'read'
            ? readProblems(key, BEFORE, after)
            : writeProblems(TEMPLATE, dir, key, BEFORE, after, WORK);
        if (problems.length > 0) failures.push(`git ${words.join(' ')} [${p.verdict.cls}]: ${problems.join(', ')}`);
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }
});
