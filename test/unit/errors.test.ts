/** Errors keep their code and exit across the engine boundary, where the class may be another copy. */
import { describe, expect, test } from 'bun:test';
import { fromErrorPayload, LspqError, toErrorPayload } from '../../src/errors';

describe('LspqError', () => {
  test('an error from another copy of the class is still an LspqError', () => {
    const foreign = Object.assign(new Error('gopls is not installed'), { [Symbol.for('lspq.error')]: true, code: 'server_not_installed', exit: 3 });
    expect(foreign instanceof LspqError).toBe(true);
    expect(toErrorPayload(foreign)).toEqual({ code: 'server_not_installed', message: 'gopls is not installed' });
  });

  test('any other error is internal, with a request to report it', () => {
    expect(new Error('boom') instanceof LspqError).toBe(false);
    expect(toErrorPayload(new Error('boom'))).toEqual({ code: 'internal', message: 'internal error: boom (please report it with the command you ran)' });
  });

  test('a payload comes back with the exit of its code; an unknown code is internal', () => {
    expect(fromErrorPayload({ code: 'refused', message: 'no' }).exit).toBe(4);
    expect(fromErrorPayload({ code: 'nonsense' as 'usage', message: 'x' }).code).toBe('internal');
  });
});
