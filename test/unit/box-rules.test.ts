/**
 * The box's pure parts: what the rules hold for a program (its install,
 * the links on the way to it, the workspace, nothing of the home but the
 * toolchains), bubblewrap's arguments, the environment's allowlist and the
 * macOS profile, each exact.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bubblewrapArgs, type PathKind } from '../../src/box/bubblewrap';
import { boxEnv } from '../../src/box/environment';
import { installOf, linkChain, rulesFor } from '../../src/box/rules-for';
import { seatbeltProfile } from '../../src/box/seatbelt';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-box-rules-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function file(path: string, text = '', mode = 0o644): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe('installOf: the folder a program is installed as', () => {
  test('a package: the outermost node_modules', () => {
    expect(installOf('/p/node_modules/a/node_modules/.bin/x')).toBe('/p/node_modules');
  });
  test('a bin folder: its prefix (GOROOT above go/bin)', () => {
    expect(installOf('/usr/local/go/bin/go')).toBe('/usr/local/go');
  });
  test('a home’s own tool folder: the bin alone, never the folder above with its credentials', () => {
    expect(installOf('/home/u/.cargo/bin/rustup', '/home/u')).toBe('/home/u/.cargo/bin');
  });
  test('any other: its folder', () => {
    expect(installOf('/opt/tools/gopls-v1/gopls')).toBe('/opt/tools/gopls-v1');
  });
});

test('linkChain: each link on the way, then where it really ends', () => {
  const real = file(join(base, 'cache', 'venv', 'bin', 'pylsp'), '#!/bin/sh\n', 0o755);
  mkdirSync(join(base, 'tools', 'bin'), { recursive: true });
  symlinkSync(join(base, 'cache', 'venv'), join(base, 'tools', 'venv'));
  symlinkSync(join(base, 'tools', 'venv', 'bin', 'pylsp'), join(base, 'tools', 'bin', 'pylsp'));
  expect(linkChain(join(base, 'tools', 'bin', 'pylsp'))).toEqual([
    join(base, 'tools', 'bin', 'pylsp'),
    join(base, 'tools', 'venv'),
    real,
  ]);
  // A loop ends: its first link is all there is.
  symlinkSync(join(base, 'loop-b'), join(base, 'loop-a'));
  symlinkSync(join(base, 'loop-a'), join(base, 'loop-b'));
  expect(linkChain(join(base, 'loop-a')).length).toBeLessThan(20);
});

describe('rulesFor', () => {
  const home = join(base, 'home');
  const ws = join(base, 'src', 'proj');
  file(join(home, '.ssh', 'id_ed25519'), 'secret');
  file(join(home, '.netrc'), 'machine x password y');
  const rustc = file(join(home, '.rustup', 'toolchains', 'stable', 'bin', 'rustc'), '', 0o755);
  file(join(ws, 'src', 'main.rs'));
  file(join(base, 'src', 'tsconfig.base.json'), '{}');
  const server = file(join(base, 'opt', 'srv', 'bin', 'server'), '#!/usr/bin/env node\n', 0o755);
  const rules = rulesFor({
    root: ws,
    binary: server,
    scratch: join(base, 'scratch'),
    env: { HOME: home, PATH: `${join(home, '.cargo', 'bin')}:/usr/bin:relative/bin` },
  });

  test('the system, the workspace, its parents’ files, the program’s install, the toolchains: read-only', () => {
    for (const path of ['/usr', '/etc', ws, join(base, 'src', 'tsconfig.base.json'), join(base, 'opt', 'srv')])
      expect(rules.read).toContain(path);
    expect(rules.read).toContain(join(home, '.rustup'));
    expect(rustc.startsWith(join(home, '.rustup'))).toBe(true);
  });
  test('nothing else of the home: not the home, not .ssh, not a dotfile', () => {
    expect(rules.read).not.toContain(home);
    expect(rules.read.filter((r) => r === join(home, '.ssh') || r.startsWith(join(home, '.ssh/')))).toEqual([]);
    expect(rules.read).not.toContain(join(home, '.netrc'));
    expect(rules.read).not.toContain('/');
  });
  test('writable: the scratch alone; no network', () => {
    expect(rules.write).toEqual([join(base, 'scratch')]);
    expect(rules.network).toBe(false);
  });
});

describe('bubblewrapArgs', () => {
  const kinds: Record<string, PathKind> = {
    '/usr': 'dir',
    '/bin': { link: 'usr/bin' },
    '/usr/bin/sh': { link: 'dash' },
    '/ws': 'dir',
    '/ws/.tools/venv': { link: '/cache/venv' },
    '/cache/venv': 'dir',
    '/scratch': 'dir',
    '/etc/hosts': 'file',
  };
  const args = bubblewrapArgs(
    {
      read: ['/ws', '/usr/bin/sh', '/usr', '/bin', '/ws/.tools/venv', '/cache/venv', '/etc/hosts', '/gone'],
      write: ['/scratch'],
      network: false,
    },
    ['server', '--stdio'],
    '/ws',
    (p) => kinds[p],
  );
  test('namespaces, no network, the usual devices, fresh /proc and /tmp; shallow first; a link inside a bound folder not made again; a missing path skipped', () => {
    expect(args).toEqual([
      '--die-with-parent',
      '--new-session',
      '--unshare-user-try',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--unshare-net',
      ...['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'].flatMap((d) => [
        '--dev-bind',
        d,
        d,
      ]),
      ...['--symlink', '/proc/self/fd', '/dev/fd', '--symlink', '/proc/self/fd/0', '/dev/stdin'],
      ...['--symlink', '/proc/self/fd/1', '/dev/stdout', '--symlink', '/proc/self/fd/2', '/dev/stderr'],
      '--tmpfs',
      '/dev/shm',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--symlink',
      'usr/bin',
      '/bin',
      '--bind',
      '/scratch',
      '/scratch',
      '--ro-bind',
      '/usr',
      '/usr',
      '--ro-bind',
      '/ws',
      '/ws',
      '--ro-bind',
      '/cache/venv',
      '/cache/venv',
      '--ro-bind',
      '/etc/hosts',
      '/etc/hosts',
      '--chdir',
      '/ws',
      '--',
      'server',
      '--stdio',
    ]);
  });
});

describe('boxEnv', () => {
  const env = boxEnv(
    {
      PATH: '/usr/bin:.::relative:/home/u/.cargo/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      GOFLAGS: '-tags=x',
      NODE_OPTIONS: '--require dotenv/config',
      PYTHONPATH: ':',
      LD_PRELOAD: '/x.so',
      GITHUB_TOKEN: 'ghp_x',
      AWS_SECRET_ACCESS_KEY: 'x',
      GIT_DIR: '/r/.git',
      SSH_AUTH_SOCK: '/tmp/agent',
    },
    { scratch: '/s' },
  );
  test('the allowlist: locale and toolchains pass; code loaders, tokens and git’s variables do not', () => {
    expect(env).toEqual({
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      GOFLAGS: '-tags=x',
      RUSTUP_HOME: '/home/u/.rustup',
      CARGO_HOME: '/home/u/.cargo',
      GOPATH: '/home/u/go',
      PYENV_ROOT: '/home/u/.pyenv',
      NVM_DIR: '/home/u/.nvm',
      PATH: '/usr/bin:/home/u/.cargo/bin',
      HOME: '/s/home',
      TMPDIR: '/s/tmp',
      XDG_CACHE_HOME: '/s/home/.cache',
      XDG_CONFIG_HOME: '/s/home/.config',
      XDG_DATA_HOME: '/s/home/.local/share',
      XDG_STATE_HOME: '/s/home/.local/state',
      GOCACHE: '/s/home/.cache/go-build',
      GOPROXY: 'off',
      CARGO_NET_OFFLINE: 'true',
      CARGO_TARGET_DIR: '/s/target',
    });
  });
  test('git: its own variables pass; the ssh agent only for a call that reaches the network', () => {
    const git = boxEnv(
      { GIT_DIR: '/r/.git', SSH_AUTH_SOCK: '/tmp/agent', PATH: '/usr/bin' },
      { scratch: '/s', git: true },
    );
    expect(git.GIT_DIR).toBe('/r/.git');
    expect(git.SSH_AUTH_SOCK).toBeUndefined();
    expect(git.CARGO_TARGET_DIR).toBeUndefined();
    const push = boxEnv({ SSH_AUTH_SOCK: '/tmp/agent' }, { scratch: '/s', git: true, network: true });
    expect(push.SSH_AUTH_SOCK).toBe('/tmp/agent');
  });
});

test('the macOS profile: writes only in the rules’ folders, the home hidden but its toolchains, no network', () => {
  expect(
    seatbeltProfile(
      { read: ['/usr', '/Users/u/.rustup', '/w'], write: ['/Users/u/Library/Caches/lspq/box/x'], network: false },
      '/Users/u',
    ),
  ).toBe(
    [
      '(version 1)',
      '(allow default)',
      '(deny file-write*)',
      '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
      '(allow file-write* (subpath "/Users/u/Library/Caches/lspq/box/x"))',
      '(deny file-read* (subpath "/Users/u"))',
      '(allow file-read-metadata (subpath "/Users/u"))',
      '(allow file-read* (subpath "/Users/u/.rustup"))',
      '(allow file-read* (subpath "/Users/u/Library/Caches/lspq/box/x"))',
      '(deny network*)',
      '',
    ].join('\n'),
  );
});
