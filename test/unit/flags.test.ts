/** The command line by each command's own definition: values, switches, aliases, and one-line refusals. */
import { describe, expect, test } from 'bun:test';
import { parseFlags as parseWith } from '../../src/commands/flags';
import type { Declaration } from '../../src/commands/define';
import { COMMANDS, type CommandName } from '../../src/commands/list';
import { LspqError } from '../../src/common/errors';

/** A command's words parsed by its own declaration. */
const parseFlags = (name: CommandName, words: string[]): Record<string, unknown> =>
  parseWith(name, COMMANDS[name] as Declaration, words);

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LspqError);
    expect((err as LspqError).exit).toBe(2);
    return (err as Error).message;
  }
  throw new Error('not refused');
}

describe('parseFlags', () => {
  test('a target, string values in both spellings, a switch, and the daemon default', () => {
    expect(parseFlags('def', ['a.go:1:2', '--root', '/r', '--timeout=3', '--json'])).toEqual({
      _: ['a.go:1:2'],
      target: 'a.go:1:2',
      root: '/r',
      timeout: '3',
      json: true,
      daemon: true,
    });
  });

  test('--no-X turns a switch off; --X=false too', () => {
    expect(parseFlags('def', ['a:1:1', '--no-daemon', '--json=false'])).toMatchObject({ daemon: false, json: false });
  });

  test('a short alias, and a kebab-case flag under its own name', () => {
    expect(parseFlags('symbols', ['-w', 'Shape', '--kind', 'class'])).toMatchObject({
      workspace: true,
      input: 'Shape',
      kind: 'class',
    });
    expect(parseFlags('refs', ['a:1:1', '--include-declaration'])).toMatchObject({ 'include-declaration': true });
  });

  test('words after -- are positional, even when they look like flags', () => {
    expect(parseFlags('diag', ['--', '-odd.ts', 'b.ts'])._).toEqual(['-odd.ts', 'b.ts']);
  });

  test('a flag declared to repeat keeps every value in order (a chain of patches); another keeps the last', () => {
    expect(parseFlags('diag', ['--patch', 'a.patch', '--patch=b.patch', '--patch', '-'])).toMatchObject({
      patch: ['a.patch', 'b.patch', '-'],
    });
    expect(parseFlags('diag', ['--patch', 'a.patch'])).toMatchObject({ patch: ['a.patch'] });
    expect(parseFlags('diag', ['--severity', 'error', '--severity', 'hint'])).toMatchObject({ severity: 'hint' });
  });

  test('diag takes any number of files; def takes one target', () => {
    expect(parseFlags('diag', ['a.ts', 'b.ts', 'c.ts'])._).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(refusal(() => parseFlags('def', ['a:1:1', 'b:1:1']))).toBe(
      "too many arguments for 'lspq def' (it takes one); see 'lspq def --help'",
    );
  });

  test('unknown flags, missing values and negative numbers are refused with the fix', () => {
    expect(refusal(() => parseFlags('def', ['a:1:1', '--bogus']))).toBe(
      "unknown flag '--bogus' for 'lspq def'; see 'lspq def --help'",
    );
    expect(refusal(() => parseFlags('def', ['a:1:1', '-x']))).toBe(
      "unknown flag '-x' for 'lspq def'; see 'lspq def --help'",
    );
    expect(refusal(() => parseFlags('def', ['a:1:1', '--no-root']))).toBe(
      "unknown flag '--no-root' for 'lspq def'; see 'lspq def --help'",
    );
    expect(refusal(() => parseFlags('def', ['a:1:1', '--root']))).toBe("--root needs a value; see 'lspq def --help'");
    expect(refusal(() => parseFlags('def', ['a:1:1', '--root', '--json']))).toBe(
      "--root needs a value, not the flag '--json'",
    );
    expect(refusal(() => parseFlags('def', ['a:1:1', '--limit', '-5']))).toBe(
      "--limit takes a positive number, not '-5'",
    );
    expect(refusal(() => parseFlags('def', ['a:1:1', '--json=yes']))).toBe(
      '--json=yes is a switch: write it alone (or --no-json), without a value',
    );
  });
});
