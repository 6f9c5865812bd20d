/**
 * git as a library (GitRepo): parsed data for lspq's own questions, under
 * the read policy, in a real repository. A hostile repository's fsmonitor,
 * diff driver and textconv must not run for any of them; each vector is
 * proven real with plain git afterwards, so the test can fail.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { GitRepo } from '../../src/git/repo';
import { TempRepo } from '../helpers/git-repo';

const r = new TempRepo();
let repo: GitRepo;
const fsmonitor = r.markerScript('fsmonitor');
const driver = r.markerScript('diff-driver');
const textconv = r.markerScript('textconv');

beforeAll(async () => {
  r.write('a.txt', 'one\ntwo\nthree\n');
  r.write('b.txt', 'bee\n');
  r.write('.gitattributes', 'a.txt diff=evil\n');
  r.commitAll('start');
  r.write('a.txt', 'one\n2\nthree\nfour\n');
  r.write('c.txt', 'new\n');
  r.git('add', 'c.txt');
  r.write('d.txt', 'untracked\n');
  // Configured last: plain git from here on would run them.
  r.git('config', 'core.fsmonitor', fsmonitor.script);
  r.git('config', 'diff.evil.command', driver.script);
  r.git('config', 'diff.evil.textconv', textconv.script);
  repo = (await GitRepo.open(r.dir, r.env()))!;
});

afterAll(() => r.cleanup());

describe('GitRepo', () => {
  test('outside a repository: undefined, not an error', async () => {
    expect(await GitRepo.open(r.home, r.env())).toBeUndefined();
  });

  test('changedFiles: staged, and changed or untracked, as sorted absolute paths', async () => {
    expect(await repo.changedFiles()).toEqual({
      staged: [r.path('c.txt')],
      changed: [r.path('a.txt'), r.path('c.txt'), r.path('d.txt')],
    });
  });

  test('staged: what a commit would hold', async () => {
    expect(await repo.staged(r.path('c.txt'))).toBe('new\n');
    expect(await repo.staged(r.path('a.txt'))).toBe('one\ntwo\nthree\n');
  });

  test('nothing the repository configures ran, and each vector is real', async () => {
    expect([existsSync(fsmonitor.marker), existsSync(driver.marker), existsSync(textconv.marker)]).toEqual([
      false,
      false,
      false,
    ]);
    r.tryGit('status');
    r.tryGit('diff');
    expect([existsSync(fsmonitor.marker), existsSync(driver.marker)]).toEqual([true, true]);
    r.tryGit('diff', '--no-ext-diff');
    expect(existsSync(textconv.marker)).toBe(true);
  });
});
