/** A diagnostic is reported once (src/engine/diagnose.ts): one problem at several places, and the same one said twice. */
import { describe, expect, test } from 'bun:test';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import type { Diagnostic } from '../../src/answers/diagnostics';
import { mergeDiagnostics, onePerProblem } from '../../src/engine/diagnose';
import { splitNew } from '../../src/engine/diagnose-since';
import { undecidable } from '../../src/engine/diagnose-tree';

const at = (line: number, character: number) => ({
  start: { line, character },
  end: { line, character: character + 4 },
});

describe('onePerProblem', () => {
  // rust-analyzer on anyhow's src/ptr.rs:48: one rustc warning with two primary spans, sent as two diagnostics.
  const rendered = {
    rendered: "warning: hiding a lifetime that's elided elsewhere is confusing\n  --> src/ptr.rs:48:19",
  };
  const warning = (character: number): LspDiagnostic => ({
    range: at(47, character),
    severity: 2,
    source: 'rustc',
    code: 'mismatched_lifetime_syntaxes',
    message: "hiding a lifetime that's elided elsewhere is confusing",
    data: rendered,
  });

  test('the same data, severity and message at two places: one diagnostic, at the first', () => {
    expect(onePerProblem([warning(28), warning(18)])).toEqual([warning(18)]);
  });

  test('other data, or none, is another problem', () => {
    const other = { ...warning(28), data: { rendered: 'warning: ...\n  --> src/ptr.rs:55:19' } };
    const bare = { ...warning(30), data: undefined };
    const alsoBare = { ...warning(40), data: undefined };
    expect(onePerProblem([warning(18), other, bare, alsoBare])).toEqual([warning(18), other, bare, alsoBare]);
  });
});

describe('mergeDiagnostics', () => {
  const d = (message: string, code?: string): Diagnostic => ({
    path: '/p/a.py',
    line: 3,
    column: 1,
    endLine: 3,
    endColumn: 5,
    severity: 'warning',
    message,
    ...(code ? { code } : {}),
  });

  test('the same message at the same place, whatever its whitespace, once: the one with a code', () => {
    expect(mergeDiagnostics([d('unused  name\nx'), d('unused name x', 'W1'), d('unused name x ')])).toEqual([
      d('unused name x', 'W1'),
    ]);
  });

  test('another message, severity or place is kept', () => {
    const error = { ...d('unused name x'), severity: 'error' as const };
    const later = { ...d('unused name x'), line: 4, endLine: 4 };
    expect(mergeDiagnostics([later, d('unused name y'), error, d('unused name x')])).toEqual([
      d('unused name y'),
      error,
      d('unused name x'),
      later,
    ]);
  });
});

describe('splitNew', () => {
  const d = (message: string): Diagnostic => ({
    path: '/p/a.go',
    line: 3,
    column: 2,
    endLine: 3,
    endColumn: 6,
    severity: 'warning',
    message,
    source: 'unusedwrite',
  });
  test("the same warning from another build's view (gopls's ' [windows]') is old; another message is new", () => {
    const split = splitNew(
      [d('unused write to field x [windows]')],
      [d('unused write to field x'), d('other')],
      new Map(),
    );
    expect(split.old.map((x) => x.message)).toEqual(['unused write to field x']);
    expect(split.fresh.map((x) => x.message)).toEqual(['other']);
  });
});

describe('undecidable', () => {
  const g = (path: string, severity: Diagnostic['severity'], source: string, isNew?: boolean): Diagnostic => ({
    path,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 2,
    severity,
    message: `${source} says`,
    source,
    ...(isNew ? { new: true } : {}),
  });
  test("an analyzer's finding in a Go package that did not type-check before is old; elsewhere, and an error, still new", () => {
    const before = [g('/p/doc/a.go', 'error', 'compiler')];
    const fresh = [
      g('/p/doc/b.go', 'warning', 'writestring', true),
      g('/p/doc/b.go', 'error', 'compiler', true),
      g('/p/other/c.go', 'warning', 'writestring', true),
      g('/p/doc/d.ts', 'warning', 'writestring', true),
    ];
    const split = undecidable({ fresh, old: [] }, before);
    expect(split.fresh.map((d) => [d.path, d.source])).toEqual([
      ['/p/doc/b.go', 'compiler'],
      ['/p/other/c.go', 'writestring'],
      ['/p/doc/d.ts', 'writestring'],
    ]);
    expect(split.old).toEqual([g('/p/doc/b.go', 'warning', 'writestring')]);
    expect(undecidable({ fresh, old: [] }, [])).toEqual({ fresh, old: [] });
  });
});
