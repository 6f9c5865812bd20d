/** Errors keep their code and exit across the engine boundary, where the class may be another copy. */
import { describe, expect, test } from 'bun:test';
import { errorOutput, fromErrorPayload, LspqError, toErrorPayload } from '../../src/common/errors';
import { serverWords } from '../../src/lsp/request-failures';

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

describe("a server's failure in its own words (serverWords)", () => {
  test.each([
    [
      "gopls's refusal of a rename: its three lines, one line",
      'mux/route.go:236:24: renaming this method "Match" to "Matches"\nmux/route.go:171:6:\twould make github.com/gorilla/mux.headerMatcher no longer assignable to interface matcher\nmux/route.go:172:2:\t(rename github.com/gorilla/mux.matcher.Match if you intend to change both types)',
      'mux/route.go:236:24: renaming this method "Match" to "Matches"; mux/route.go:171:6: would make github.com/gorilla/mux.headerMatcher no longer assignable to interface matcher; mux/route.go:172:2: (rename github.com/gorilla/mux.matcher.Match if you intend to change both types)',
    ],
    [
      "typescript-language-server's tsserver error: its stack and the stack's own first line left out",
      'Request textDocument/rename failed with message: <semantic> TypeScript Server Error (5.9.2)\nDebug Failure. False expression.\nError: Debug Failure. False expression.\n    at Object.rename (tsserver.js:1:2)\n    at Session.handle (tsserver.js:3:4)',
      'Request textDocument/rename failed with message: <semantic> TypeScript Server Error (5.9.2); Debug Failure. False expression.',
    ],
    [
      "a Python server's traceback",
      'cannot rename a builtin\nTraceback (most recent call last):\n  File "server.py", line 3, in rename\nValueError: builtin',
      'cannot rename a builtin',
    ],
    [
      "a Go server's panic and a Rust server's backtrace",
      'index out of range\ngoroutine 7 [running]:\nmain.rename()',
      'index out of range',
    ],
    [
      'one line, a trailing colon and spaces dropped',
      '  invalid identifier to rename:  \n',
      'invalid identifier to rename',
    ],
    ['a line that says Error: with no stack after it is kept', 'first\nError: second', 'first; Error: second'],
  ] as const)('%s', (_what, message, words) => {
    expect(serverWords(message)).toBe(words);
  });
});
