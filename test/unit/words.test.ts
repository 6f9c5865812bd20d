import { describe, expect, test } from 'bun:test';
import { asksStdin, commandFirst, scanWords } from '../../src/common/words';

describe('global flags before the command', () => {
  test.each([
    [
      ['--json', 'def', 'a.go:1:2'],
      ['def', '--json', 'a.go:1:2'],
    ],
    [
      ['--no-daemon', 'refs', 'x'],
      ['refs', '--no-daemon', 'x'],
    ],
    [
      ['--root', '/p', '--timeout=5', 'hover', 'x'],
      ['hover', '--root', '/p', '--timeout=5', 'x'],
    ],
    [
      ['def', '--json', 'x'],
      ['def', '--json', 'x'],
    ],
    [['--json'], ['--json']],
    [['--help'], ['--help']],
    [
      ['--verbose', 'def'],
      ['--verbose', 'def'],
    ],
    [
      ['git', '--json', 'status'],
      ['git', '--json', 'status'],
    ],
  ])('%j reads as %j', (argv, expected) => {
    expect(commandFirst(argv)).toEqual(expected);
  });
});

const json = (words: string[], env: Record<string, string> = {}) => scanWords(words, env).json;
const timeout = (words: string[]) => scanWords(words, {}).timeoutMs;

describe('the words read once', () => {
  test('--json as the command will read it: the last word wins, nothing after --', () => {
    expect(json(['def', 'a.go:1:1', '--json'])).toBe(true);
    expect(json(['def', '--json', '--no-json'])).toBe(false);
    expect(json(['def', '--json=false'], { LSPQ_JSON: '1' })).toBe(false);
    expect(json(['def'], { LSPQ_JSON: '1' })).toBe(true);
    expect(json(['symbols', '--', '--json'])).toBe(false);
    expect(json(['--json', 'def'])).toBe(true);
  });

  test('--timeout S in either spelling, in milliseconds; the last one wins', () => {
    expect(timeout(['def', 'a.go:1:1', '--timeout', '2'])).toBe(2000);
    expect(timeout(['def', '--timeout=0.5'])).toBe(500);
    expect(timeout(['def', '--timeout', '2', '--timeout', '7'])).toBe(7000);
    expect(timeout(['--timeout', '3', 'def'])).toBe(3000);
  });

  test('--timeout absent, not a number, not positive, or after --: the default applies', () => {
    expect(timeout(['def', 'a.go:1:1'])).toBeUndefined();
    expect(timeout(['def', '--timeout', 'soon'])).toBeUndefined();
    expect(timeout(['def', '--timeout', '0'])).toBeUndefined();
    expect(timeout(['def', '--timeout'])).toBeUndefined();
    expect(timeout(['symbols', '--', '--timeout', '3'])).toBeUndefined();
  });

  test('--help for a command, but not for one that passes its words on (git)', () => {
    expect(scanWords(['def', '--help'], {}).help).toBe(true);
    expect(scanWords(['git', 'log', '-h'], {}, (c) => c === 'git').help).toBe(false);
  });

  test('--no-daemon anywhere, or LSPQ_NO_DAEMON=1', () => {
    expect(scanWords(['--no-daemon', 'def', 'x'], {})).toMatchObject({ command: 'def', noDaemon: true });
    expect(scanWords(['def', 'x'], { LSPQ_NO_DAEMON: '1' }).noDaemon).toBe(true);
    expect(scanWords(['def', 'x'], {}).noDaemon).toBe(false);
  });
});

describe('the words that ask for stdin, as each declaration says', () => {
  const valued = (flag: string) => ['for', 'severity', 'fail-on', 'root'].includes(flag);
  test.each<[Parameters<typeof asksStdin>[0], string[], boolean]>([
    [{ flag: 'patch' }, ['--patch', '-'], true],
    [{ flag: 'patch' }, ['--patch=-'], true],
    [{ flag: 'patch' }, ['--patch', 'a.patch', '--patch', '-'], true],
    [{ flag: 'patch' }, ['--patch', 'a.patch'], false],
    [{ word: 'run' }, ['run', '--for', 'claude'], true],
    // A flag's value is no positional word: `warning` is --severity's.
    [{ word: 'run' }, ['--severity', 'warning', 'run'], true],
    [{ word: 'run' }, ['claude'], false],
    [{ word: 'run' }, ['--', 'run'], true],
    [{ anyWord: '-' }, ['-'], true],
    [{ anyWord: '-' }, ['a.patch', '-'], true],
    [{ anyWord: '-' }, ['--fail-on', 'warning', '-'], true],
    [{ anyWord: '-' }, ['--root', '-', 'a.patch'], false],
    [{ anyWord: '-' }, ['a.patch', '--json'], false],
    [{ anyWord: '-' }, ['--', 'a.patch', '-'], true],
  ])('%j in %j: %p', (how, words, asks) => {
    expect(asksStdin(how, words, valued)).toBe(asks);
  });
});
