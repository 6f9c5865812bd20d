import { describe, expect, test } from 'bun:test';
import { commandFirst } from '../../src/cli/global-flags';

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
