/** Errors keep their code and exit across the engine boundary, where the class may be another copy. */
import { describe, expect, test } from 'bun:test';
import { errorOutput, fromErrorPayload, jsonInArgv, LspqError, toErrorPayload } from '../../src/errors';
import { timeoutInArgs } from '../../src/protocol/daemon-client';

describe('LspqError', () => {
  test('an error from another copy of the class is still an LspqError', () => {
    const foreign = Object.assign(new Error('gopls is not installed'), {
      [Symbol.for('lspq.error')]: true,
      code: 'server_not_installed',
      exit: 3,
    });
    expect(foreign instanceof LspqError).toBe(true);
    expect(toErrorPayload(foreign)).toEqual({ code: 'server_not_installed', message: 'gopls is not installed' });
  });

  test('any other error is internal, with a request to report it', () => {
    expect(new Error('boom') instanceof LspqError).toBe(false);
    expect(toErrorPayload(new Error('boom'))).toEqual({
      code: 'internal',
      message: 'internal error: boom (please report it with the command you ran)',
    });
  });

  test('a payload comes back with the exit of its code; an unknown code is internal', () => {
    expect(fromErrorPayload({ code: 'refused', message: 'no' }).exit).toBe(4);
    expect(fromErrorPayload({ code: 'nonsense' as 'usage', message: 'x' }).code).toBe('internal');
  });
});

describe('what a failed command prints', () => {
  test('an lspq error: its line on stderr, its exit code, and the JSON document only with --json', () => {
    const err = new LspqError('file_not_found', 'a.go does not exist');
    const error = { code: 'file_not_found', message: 'a.go does not exist' };
    expect(errorOutput(err, false)).toEqual({ stdout: '', stderr: 'a.go does not exist', exit: 2, error });
    expect(errorOutput(err, true)).toEqual({
      stdout: '{"error":{"code":"file_not_found","message":"a.go does not exist"}}\n',
      stderr: 'a.go does not exist',
      exit: 2,
      error,
    });
  });

  test('anything else is an internal error, exit 3', () => {
    expect(errorOutput(new TypeError('x is undefined'), false).exit).toBe(3);
  });

  test('--json is read as the command will read it: the last word wins, nothing after --', () => {
    expect(jsonInArgv(['def', 'a.go:1:1', '--json'], {})).toBe(true);
    expect(jsonInArgv(['def', '--json', '--no-json'], {})).toBe(false);
    expect(jsonInArgv(['def', '--json=false'], { LSPQ_JSON: '1' })).toBe(false);
    expect(jsonInArgv(['def'], { LSPQ_JSON: '1' })).toBe(true);
    expect(jsonInArgv(['symbols', '--', '--json'], {})).toBe(false);
  });
});

describe('how long a command waits for the daemon', () => {
  test('--timeout S in either spelling, in milliseconds; the last one wins', () => {
    expect(timeoutInArgs(['def', 'a.go:1:1', '--timeout', '2'])).toBe(2000);
    expect(timeoutInArgs(['def', '--timeout=0.5'])).toBe(500);
    expect(timeoutInArgs(['def', '--timeout', '2', '--timeout', '7'])).toBe(7000);
  });

  test('absent, not a number, not positive, or after --: the default applies', () => {
    expect(timeoutInArgs(['def', 'a.go:1:1'])).toBeUndefined();
    expect(timeoutInArgs(['def', '--timeout', 'soon'])).toBeUndefined();
    expect(timeoutInArgs(['def', '--timeout', '0'])).toBeUndefined();
    expect(timeoutInArgs(['def', '--timeout'])).toBeUndefined();
    expect(timeoutInArgs(['symbols', '--', '--timeout', '3'])).toBeUndefined();
  });
});

describe("a server's error message reaches the user as one line", () => {
  const { firstLine } = require('../../src/lsp/client') as typeof import('../../src/lsp/client');
  test("tsserver's stack: the first line, without the colon that led into the stack", () => {
    expect(
      firstLine(
        'Request workspace/symbol failed with message: Error processing request. No Project.\nError: No Project.\n    at Object.ThrowNoProject (tsserver.js:1:1)\n    at x (y.js:2:2)',
      ),
    ).toBe('Request workspace/symbol failed with message: Error processing request. No Project.');
    expect(firstLine('\n\nSomething failed:\n  at a')).toBe('Something failed');
    expect(firstLine('plain')).toBe('plain');
  });
});
