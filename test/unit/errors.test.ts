/** Errors keep their code and exit across the engine boundary, where the class may be another copy. */
import { describe, expect, test } from 'bun:test';
import { errorOutput, fromErrorPayload, LspqError, toErrorPayload } from '../../src/common/errors';

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
    const error = { code: 'file_not_found' as const, message: 'a.go does not exist' };
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
});
