import { describe, expect, test } from 'bun:test';
import { gitArgv, jsonCalls, jsonConflict } from '../../src/git/invocation';
import { BATCH_SSH, configParameters, neutralize } from '../../src/git/neutralize';
import { plan } from '../../src/git/policy';
import type { ConfigEntry } from '../../src/git/types';

const e = (scope: string, key: string, value: string | null): ConfigEntry => ({ scope, key, value });
const facts = { commits: new Set<string>(), config: [] as ConfigEntry[] };

describe('neutralize', () => {
  const config = [
    e('global', 'gpg.program', '/usr/bin/my-gpg'),
    e('local', 'gpg.program', '/repo/evil'),
    e('local', 'gpg.ssh.program', '/repo/evil'),
    e('global', 'filter.lfs.clean', 'git-lfs clean -- %f'),
    e('global', 'filter.lfs.required', 'true'),
    e('local', 'filter.lfs.clean', '/repo/evil'),
    e('local', 'filter.a=b.process', '/repo/evil'),
    e('global', 'diff.mine.textconv', 'my-textconv'),
    e('local', 'diff.evil.command', '/repo/evil'),
    e('system', 'credential.helper', 'cache'),
    e('local', 'credential.https://x.example.helper', '!evil'),
    e('global', 'credential.https://y.example.helper', 'store'),
    e('local', 'core.sshcommand', '/repo/evil'),
    e('local', 'core.askpass', '/repo/evil'),
    e('local', 'remote.origin.uploadpack', '/repo/evil'),
    e('local', 'diff.submodule', 'diff'),
    e('local', 'core.gitproxy', '/repo/evil'),
  ];

  test("reads replace what the repository sets with the user's own value or git's default", () => {
    const n = neutralize(config, 'read', {});
    const map = new Map(n.config);
    expect(map.get('gpg.program')).toBe('/usr/bin/my-gpg');
    expect(map.get('gpg.ssh.program')).toBe('ssh-keygen');
    expect(map.get('filter.lfs.clean')).toBe('git-lfs clean -- %f');
    expect(map.has('filter.lfs.required')).toBe(false);
    expect(map.get('filter.a=b.process')).toBe('');
    expect(map.get('filter.a=b.required')).toBe('false');
    expect(map.get('diff.mine.textconv')).toBe('');
    expect(map.get('diff.evil.command')).toBe('');
    expect(map.get('core.sshcommand')).toBe(BATCH_SSH);
    expect(map.get('core.askpass')).toBe('');
    // First value wins for uploadpack: fetch gets --upload-pack instead (see the policy tests).
    expect(map.has('remote.origin.uploadpack')).toBe(false);
    expect(map.get('diff.submodule')).toBe('log');
    expect(map.get('core.fsmonitor')).toBe('false');
    expect(map.get('core.hookspath')).toBe('/dev/null');
    expect(map.get('core.pager')).toBe('cat');
    expect(map.get('protocol.ext.allow')).toBe('never');
    // The helper list is reset, then the user's helpers come back in their order.
    const helpers = n.config.filter(([k]) => /^credential\./.test(k));
    expect(helpers).toEqual([
      ['credential.helper', ''],
      ['credential.helper', 'cache'],
      ['credential.https://y.example.helper', 'store'],
    ]);
    expect(n.env).toEqual({
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      GIT_EDITOR: ':',
      GIT_SEQUENCE_EDITOR: ':',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_PROXY_COMMAND: '',
    });
  });

  test('trusted values alone change nothing', () => {
    const n = neutralize(
      [
        e('global', 'gpg.program', 'g'),
        e('global', 'credential.helper', 'store'),
        e('global', 'core.sshcommand', 'ssh -i k'),
      ],
      'read',
      {},
    );
    expect(n.config.filter(([k]) => /^(gpg|credential|core\.sshcommand)/.test(k))).toEqual([]);
  });

  test("writes keep the repository's configuration but never page, prompt or edit", () => {
    const n = neutralize(config, 'write', {});
    expect(n.config).toEqual([['core.pager', 'cat']]);
    expect(n.env).toEqual({
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      GIT_EDITOR: ':',
      GIT_SEQUENCE_EDITOR: ':',
    });
  });

  test('ssh never asks, unless the user chose an ssh command', () => {
    expect(neutralize([], 'write', {}).config).toContainEqual(['core.sshcommand', BATCH_SSH]);
    expect(neutralize([], 'write', { GIT_SSH_COMMAND: 'ssh -v' }).config).not.toContainEqual([
      'core.sshcommand',
      BATCH_SSH,
    ]);
  });

  test('GIT_CONFIG_PARAMETERS quoting keeps quotes and = in keys, after what the caller had', () => {
    expect(
      configParameters(
        [
          ['filter.a=b.clean', ''],
          ['x.y', "it's"],
        ],
        "'u.v'='1'",
      ),
    ).toBe("'u.v'='1' 'filter.a=b.clean'='' 'x.y'='it'\\''s'");
  });
});

describe('invocation', () => {
  test("safety options after the subcommand, formats before the user's --", () => {
    const p = plan(['log', '-n', '3', '--', 'src dir'], facts);
    expect(gitArgv(p, ['--FORMAT'])).toEqual([
      '--no-pager',
      'log',
      '--no-ext-diff',
      '--no-textconv',
      '-n',
      '3',
      '--FORMAT',
      '--',
      'src dir',
    ]);
  });

  test('a -- consumed as a value is not the separator', () => {
    const p = plan(['log', '--grep', '--', 'x'], facts);
    expect(gitArgv(p, ['--F'])).toEqual([
      '--no-pager',
      'log',
      '--no-ext-diff',
      '--no-textconv',
      '--grep',
      '--',
      'x',
      '--F',
    ]);
  });

  test('--end-of-options keeps revisions after the formats', () => {
    const p = plan(['log', '--end-of-options', '-weird-branch'], facts);
    expect(gitArgv(p, ['--F'])).toEqual([
      '--no-pager',
      'log',
      '--no-ext-diff',
      '--no-textconv',
      '--F',
      '--end-of-options',
      '-weird-branch',
    ]);
  });

  test('global options stay before the subcommand; shortlog gets HEAD', () => {
    expect(gitArgv(plan(['--literal-pathspecs', 'shortlog', '-sn'], facts))).toEqual([
      '--no-pager',
      '--literal-pathspecs',
      'shortlog',
      '--no-ext-diff',
      '--no-textconv',
      '-sn',
      'HEAD',
    ]);
    expect(gitArgv(plan(['shortlog', 'v1..v2'], facts))).toEqual([
      '--no-pager',
      'shortlog',
      '--no-ext-diff',
      '--no-textconv',
      'v1..v2',
    ]);
  });

  test('diff --json runs counts, then the patch', () => {
    const calls = jsonCalls(plan(['diff', '--staged'], facts));
    expect(calls).toEqual([
      [
        '--no-pager',
        'diff',
        '--no-ext-diff',
        '--no-textconv',
        '--ignore-submodules=dirty',
        '--staged',
        '--raw',
        '--numstat',
        '-z',
        '--no-abbrev',
        '--no-color',
      ],
      [
        '--no-pager',
        'diff',
        '--no-ext-diff',
        '--no-textconv',
        '--ignore-submodules=dirty',
        '--staged',
        '-p',
        '--no-color',
        '--src-prefix=a/',
        '--dst-prefix=b/',
      ],
    ]);
  });

  test('output formats that would mix with the parsed ones are named', () => {
    expect(jsonConflict(plan(['diff', '--stat'], facts))).toBe('--stat');
    expect(jsonConflict(plan(['log', '-p'], facts))).toBe('-p');
    expect(jsonConflict(plan(['log', '--graph', '--oneline'], facts))).toBe('--graph');
    expect(jsonConflict(plan(['log', '--oneline', '-n', '2'], facts))).toBeUndefined();
    expect(jsonConflict(plan(['status', '-s'], facts))).toBeUndefined();
  });
});
