/**
 * A hostile repository per vector: its configuration names a program that
 * leaves a marker file when it runs. Each test runs lspq first (no marker
 * may appear), then plain git on the same repository to prove the vector
 * is real (the marker appears), so every test can fail.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { TempRepo } from '../helpers/git-repo';

let repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos) r.cleanup();
  repos = [];
});

function repo(): TempRepo {
  const r = new TempRepo();
  repos.push(r);
  r.write('a.txt', 'one\n');
  r.commitAll('first');
  return r;
}

/** Modified content with an old mtime: git must read (and filter) the file to know its status. */
function modifyRacily(r: TempRepo, rel: string, content: string): void {
  r.write(rel, content);
  utimesSync(r.path(rel), new Date('2001-01-01'), new Date('2001-01-01'));
}

async function expectProven(marker: string, run: () => unknown): Promise<void> {
  expect(existsSync(marker)).toBe(false);
  await run();
  expect(existsSync(marker)).toBe(true);
}

describe('hostile repositories: read commands run nothing the repository names', () => {
  test('core.fsmonitor', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('fsmonitor');
    r.git('config', 'core.fsmonitor', script);
    r.write('a.txt', 'two\n');
    for (const args of [['status'], ['status', '--json'], ['diff'], ['diff', '--json']]) {
      const out = await r.lspq(args);
      expect(out.exit).toBe(0);
    }
    await expectProven(marker, () => r.tryGit('status'));
  });

  test('core.pager and pager.<cmd>, on a terminal', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('pager');
    r.git('config', 'core.pager', script);
    r.git('config', 'pager.log', script);
    r.git('config', 'pager.status', script);
    const log = await r.lspqOnTty(['log', '-1', '--format=%s']);
    expect(log.stdout.replace(/\r/g, '')).toBe('first\n');
    await r.lspqOnTty(['status']);
    await r.lspqOnTty(['-P', 'log']);
    await expectProven(marker, () => r.onTty('git log -1'));
  });

  test('diff driver command (diff.<driver>.command) and diff.external', async () => {
    const r = repo();
    const driver = r.markerScript('diff-driver');
    const external = r.markerScript('diff-external');
    r.write('.gitattributes', '*.txt diff=evil\n');
    r.commitAll('attributes');
    r.git('config', 'diff.evil.command', driver.script);
    r.git('config', 'diff.external', external.script);
    r.write('a.txt', 'two\n');
    const diff = await r.lspq(['diff']);
    expect(diff.stdout).toContain('+two');
    await r.lspq(['diff', '--json']);
    await r.lspq(['log', '-p', '-1']);
    await r.lspq(['show', 'HEAD']);
    await r.lspq(['stash', 'list', '-p']);
    expect(existsSync(external.marker)).toBe(false);
    await expectProven(driver.marker, () => r.tryGit('diff'));
    r.git('config', '--unset', 'diff.evil.command');
    await expectProven(external.marker, () => r.tryGit('diff'));
  });

  test('textconv (diff.<driver>.textconv), including blame, which uses it by default', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('textconv');
    r.write('.gitattributes', '*.txt diff=conv\n');
    r.commitAll('attributes');
    r.git('config', 'diff.conv.textconv', script);
    r.write('a.txt', 'two\n');
    for (const args of [
      ['diff'],
      ['diff', '--json'],
      ['log', '-p'],
      ['show'],
      ['show', 'HEAD:a.txt'],
      ['blame', 'a.txt'],
      ['grep', 'one', 'HEAD'],
    ]) {
      const out = await r.lspq(args);
      expect({ args, exit: out.exit, stderr: out.stderr }).toEqual({ args, exit: 0, stderr: '' });
    }
    await expectProven(marker, () => r.tryGit('blame', 'a.txt'));
  });

  test('clean/smudge filters (filter.<driver>.*), even a required one', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('filter');
    r.write('.gitattributes', '*.txt filter=evil\n');
    r.commitAll('attributes');
    r.git('config', 'filter.evil.clean', script);
    r.git('config', 'filter.evil.smudge', script);
    r.git('config', 'filter.evil.required', 'true');
    modifyRacily(r, 'a.txt', 'two\n');
    const status = await r.json<{ unstaged: unknown[] }>(['status']);
    expect(status.unstaged).toEqual([{ path: 'a.txt', status: 'modified' }]);
    expect((await r.lspq(['diff'])).stdout).toContain('+two');
    await r.lspq(['diff', '--json']);
    await expectProven(marker, () => r.tryGit('status'));
  });

  test('a long-running filter (filter.<driver>.process) under a name with = and dots', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('filter-process');
    r.write('.gitattributes', '*.txt filter=we=ird.name\n');
    r.commitAll('attributes');
    r.git('config', 'filter.we=ird.name.process', script);
    modifyRacily(r, 'a.txt', 'two\n');
    expect((await r.lspq(['status', '--short'])).stdout).toBe(' M a.txt\n');
    await expectProven(marker, () => r.tryGit('status'));
  });

  test('signature program (gpg.program with log.showSignature, and --show-signature)', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('gpg');
    // A commit carrying a (bogus) signature, so that showing it verifies.
    const raw = r.git('cat-file', 'commit', 'HEAD').split('\n');
    const signed = [
      ...raw.slice(0, 3),
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' ',
      ' AAAA',
      ' -----END PGP SIGNATURE-----',
      '',
      'signed',
      '',
    ].join('\n');
    writeFileSync(join(r.base, 'commit.txt'), signed);
    const hash = r.git('hash-object', '-t', 'commit', '-w', join(r.base, 'commit.txt')).trim();
    r.git('update-ref', 'refs/heads/main', hash);
    r.git('config', 'gpg.program', script);
    r.git('config', 'log.showSignature', 'true');
    expect((await r.json<{ commits: Array<{ subject: string }> }>(['log', '-1'])).commits[0]?.subject).toBe('signed');
    await r.lspq(['log']);
    await r.lspq(['show']);
    await r.lspq(['log', '--show-signature']);
    await r.lspq(['log', '--format=%G?']);
    await expectProven(marker, () => r.tryGit('log', '-1'));
  });

  test('hooks: reference-transaction on fetch, in .git/hooks and in core.hooksPath', async () => {
    const upstream = repo();
    const r = new TempRepo('clone', false);
    repos.push(r);
    r.gitIn(r.base, 'clone', '-q', upstream.dir, r.dir);
    const { script, marker } = r.markerScript('hook');
    const hook = `#!/bin/sh\nexec '${script}'\n`;
    const hooks = join(r.base, 'hooks');
    mkdirSync(hooks);
    for (const dir of [hooks, r.path('.git/hooks')]) {
      writeFileSync(join(dir, 'reference-transaction'), hook);
      chmodSync(join(dir, 'reference-transaction'), 0o755);
    }
    for (const hooksPath of [undefined, hooks]) {
      if (hooksPath) r.git('config', 'core.hooksPath', hooksPath);
      upstream.write('b.txt', String(hooksPath));
      const tip = upstream.commitAll(`to fetch with hooks in ${hooksPath ?? '.git/hooks'}`);
      const fetch = await r.lspq(['fetch', 'origin']);
      expect(fetch.exit).toBe(0);
      expect(r.git('rev-parse', 'origin/main').trim()).toBe(tip);
      expect(existsSync(marker)).toBe(false);
    }
    upstream.write('c.txt', 'c\n');
    upstream.commitAll('third');
    await expectProven(marker, () => r.tryGit('fetch', 'origin'));
  });

  test('remote.<name>.uploadpack on a local remote', async () => {
    const upstream = repo();
    const r = repo();
    const { script, marker } = r.markerScript('upload-pack');
    r.git('remote', 'add', 'up', upstream.dir);
    r.git('config', 'remote.up.uploadpack', script);
    const fetch = await r.lspq(['fetch', 'up']);
    expect(fetch.exit).toBe(0);
    expect(r.git('rev-parse', 'up/main').trim()).toBe(upstream.git('rev-parse', 'HEAD').trim());
    expect((await r.lspq(['fetch', '--all'])).exit).toBe(4);
    expect((await r.lspq(['remote', 'show', 'up'])).exit).toBe(4);
    expect((await r.lspq(['remote', 'show', '-n', 'up'])).exit).toBe(0);
    await expectProven(marker, () => r.tryGit('fetch', 'up'));
  });

  test('core.sshCommand', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('ssh');
    r.git('remote', 'add', 'far', 'ssh://git@127.0.0.1:1/repo.git');
    r.git('config', 'core.sshCommand', script);
    const fetch = await r.lspq(['fetch', 'far']);
    expect(fetch.exit).toBe(1);
    await expectProven(marker, () => r.tryGit('fetch', 'far'));
  });

  test('credential.helper and core.askPass, against a server that asks for credentials', async () => {
    const r = repo();
    const helper = r.markerScript('credential-helper');
    const askpass = r.markerScript('askpass');
    const server = Bun.serve({
      port: 0,
      fetch: () => new Response('no', { status: 401, headers: { 'WWW-Authenticate': 'Basic realm="x"' } }),
    });
    try {
      r.git('remote', 'add', 'web', `http://127.0.0.1:${server.port}/repo.git`);
      r.git('config', 'credential.helper', helper.script);
      r.git('config', 'core.askPass', askpass.script);
      const fetch = await r.lspq(['fetch', 'web']);
      expect(fetch.exit).toBe(1);
      expect(fetch.stderr).toContain('terminal prompts disabled');
      expect(existsSync(askpass.marker)).toBe(false);
      await expectProven(helper.marker, () => r.tryGitAsync('fetch', 'web'));
      expect(existsSync(askpass.marker)).toBe(true);
    } finally {
      server.stop(true);
    }
  });

  test('ext:: remotes, even when the repository allows the ext protocol', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('ext', 'fail');
    r.git('remote', 'add', 'evil', `ext::${script}`);
    r.git('config', 'protocol.ext.allow', 'always');
    const fetch = await r.lspq(['fetch', 'evil']);
    expect(fetch.exit).toBe(1);
    expect(fetch.stderr).toContain("transport 'ext' not allowed");
    const direct = await r.lspq(['fetch', `ext::${script}`]);
    expect(direct.exit).toBe(4);
    await expectProven(marker, () => r.tryGit('fetch', 'evil'));
  });

  test("a submodule's own filter, through git status recursing into it", async () => {
    const sub = repo();
    sub.write('.gitattributes', '*.txt filter=subevil\n');
    sub.commitAll('attributes');
    const r = repo();
    r.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.dir, 'sub');
    r.commitAll('add submodule');
    const { script, marker } = r.markerScript('submodule-filter');
    r.gitIn(r.path('sub'), 'config', 'filter.subevil.clean', script);
    modifyRacily(r, 'sub/a.txt', 'two\n');
    expect((await r.lspq(['status'])).exit).toBe(0);
    expect((await r.lspq(['status', '--json'])).exit).toBe(0);
    expect((await r.lspq(['diff'])).exit).toBe(0);
    expect((await r.lspq(['status', '--ignore-submodules=none'])).exit).toBe(4);
    await expectProven(marker, () => r.tryGit('status'));
  });

  test('everything at once, every read command, on a terminal: no marker at all', async () => {
    const r = repo();
    const { script, marker } = r.markerScript('any');
    r.write('.gitattributes', '* filter=evil diff=evil\n');
    r.commitAll('attributes');
    r.git('tag', '-a', 'v1', '-m', 'v1');
    for (const [key, value] of [
      ['core.fsmonitor', script],
      ['core.pager', script],
      ['pager.log', script],
      ['pager.diff', script],
      ['diff.external', script],
      ['diff.evil.command', script],
      ['diff.evil.textconv', script],
      ['filter.evil.clean', script],
      ['filter.evil.smudge', script],
      ['gpg.program', script],
      ['log.showSignature', 'true'],
      ['core.sshCommand', script],
      ['credential.helper', script],
      ['core.askPass', script],
      ['core.hooksPath', join(r.base, 'bin')],
      ['status.submoduleSummary', 'true'],
    ] as const)
      r.git('config', key, value);
    modifyRacily(r, 'a.txt', 'two\n');
    r.write('new.txt', 'new\n');
    const reads = [
      ['status'],
      ['status', '--json'],
      ['diff'],
      ['diff', '--json'],
      ['diff', '--cached'],
      ['log', '-p'],
      ['log', '--json'],
      ['show'],
      ['show', 'v1'],
      ['branch', '-vv'],
      ['branch', '--json'],
      ['tag', '-n'],
      ['describe', '--dirty'],
      ['grep', 'one'],
      ['ls-files', '-m'],
      ['rev-parse', 'HEAD'],
      ['shortlog', '-s'],
      ['stash', 'list'],
      ['blame', 'a.txt'],
      ['remote', '-v'],
      ['clean', '-n'],
    ];
    for (const args of reads) await r.lspqOnTty(args);
    expect(existsSync(marker)).toBe(false);
    rmSync(marker, { force: true });
    await expectProven(marker, () => r.tryGit('status'));
  });
});

describe('write commands never wait for input', () => {
  test("commit without -m does not start the repository's editor", async () => {
    const r = repo();
    const { script, marker } = r.markerScript('editor');
    r.git('config', 'core.editor', script);
    r.write('a.txt', 'two\n');
    const commit = await r.lspq(['commit', '-a', '--allow-write']);
    expect(commit.exit).toBe(1);
    expect(commit.stderr).toContain('Aborting commit due to empty commit message');
    await expectProven(marker, () => r.tryGit('commit', '-a'));
  });
});

describe("the user's own configuration still applies", () => {
  test('a filter from the global config runs (like git-lfs); the repository cannot replace it', async () => {
    const r = repo();
    const mine = r.markerScript('global-filter');
    const theirs = r.markerScript('local-filter');
    writeFileSync(join(r.home, '.gitconfig'), `[filter "lfs"]\n\tclean = ${mine.script}\n\tsmudge = ${mine.script}\n`);
    r.write('.gitattributes', '*.txt filter=lfs\n');
    r.commitAll('attributes');
    r.git('config', 'filter.lfs.clean', theirs.script);
    rmSync(mine.marker, { force: true });
    modifyRacily(r, 'a.txt', 'two\n');
    expect((await r.lspq(['status', '--short'])).stdout).toBe(' M a.txt\n');
    expect(existsSync(mine.marker)).toBe(true);
    expect(existsSync(theirs.marker)).toBe(false);
    await expectProven(theirs.marker, () => r.tryGit('status'));
  });
});
