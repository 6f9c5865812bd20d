/** The one rule every diag form and the hook end in: problems, a whole answer, and what was not checked. */
import { describe, expect, test } from 'bun:test';
import { verdict } from '../../src/render/verdict';

const none = { error: 0, warning: 0, info: 0, hint: 0 };
const MARKSMAN = 'marksman is not installed; install it: install marksman';
const GOPLS = 'gopls is not installed; install it: go install golang.org/x/tools/gopls@latest';
const base = { summary: none, incomplete: [], withheld: [], unchecked: [] };

describe('verdict', () => {
  test('a Markdown file not checked is a note: the exit is the problems', () => {
    const readme = { path: '/p/README.md', reason: MARKSMAN, needed: false };
    expect(verdict({ ...base, summary: { ...none, error: 1 }, unchecked: [readme] }, 'error', '/p')).toEqual({
      exit: 1,
      failing: true,
      gaps: [],
      notes: [`not checked: README.md (${MARKSMAN})`],
    });
    expect(verdict({ ...base, unchecked: [readme] }, 'error', '/p').exit).toBe(0);
  });

  test('a program not checked is exit 3, problems or not; one line per missing server', () => {
    const go = ['/p/a.go', '/p/b.go', '/p/c.go', '/p/d.go'].map((path) => ({ path, reason: GOPLS, needed: true }));
    expect(verdict({ ...base, summary: { ...none, error: 2 }, unchecked: go }, 'error', '/p')).toEqual({
      exit: 3,
      failing: true,
      gaps: [`not checked: a.go, b.go, c.go and 1 more (${GOPLS})`],
      notes: [],
    });
  });

  test('--fail-on: warnings fail at warning, never at error; never fails on none', () => {
    const warned = { ...base, summary: { ...none, warning: 1 } };
    expect([
      verdict(warned, 'warning', '/p').exit,
      verdict(warned, 'error', '/p').exit,
      verdict({ ...warned, summary: { ...none, error: 3 } }, undefined, '/p').exit,
    ]).toEqual([1, 0, 0]);
  });

  test('a checker left out and diagnostics not in time: exit 3, each said', () => {
    const v = verdict(
      {
        ...base,
        withheld: [
          { server: 'eslint', missing: 'the checks eslint.config.js asks for', fix: 'lspq trust lets it run' },
        ],
        incomplete: ['/p/src/a.ts'],
      },
      'error',
      '/p',
    );
    expect([v.exit, v.gaps]).toEqual([
      3,
      [
        'diagnostics are incomplete: eslint left out the checks eslint.config.js asks for (lspq trust lets it run)',
        'diagnostics are incomplete for src/a.ts: the server did not finish in time; retry with a larger --timeout',
      ],
    ]);
  });
});
