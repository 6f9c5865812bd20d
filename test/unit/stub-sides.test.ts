/**
 * A Python stub and its implementation as one symbol, the pure parts: the
 * chain of names a declaration sits in and where a stub names the same
 * chain (its overloads too), the two renames joined into one edit (an edit
 * both give taken once, two that change one text differently named), and
 * the pair a module and its stub move as.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DocumentSymbol, SymbolKind, type TextEdit } from 'vscode-languageserver-protocol';
import { LspqError } from '../../src/common/errors';
import { chainAt, namedBy, pairedMove } from '../../src/engine/stub-sides';
import { joinEdits, planWorkspaceEdit } from '../../src/lsp/workspace-edit';

const range = (line: number, start: number, endLine: number, end: number) => ({
  start: { line, character: start },
  end: { line: endLine, character: end },
});
const symbol = (
  name: string,
  line: number,
  column: number,
  lines: number,
  children: DocumentSymbol[] = [],
): DocumentSymbol => ({
  name,
  kind: children.length ? SymbolKind.Class : SymbolKind.Function,
  range: range(line, 0, line + lines, 0),
  selectionRange: range(line, column, line, column + name.length),
  children,
});

// class Box: (0) / def __init__ (2) / def grow (4); def scale (8); two overloads of pick (10, 12)
const implementation: DocumentSymbol[] = [
  symbol('Box', 0, 6, 6, [symbol('__init__', 2, 8, 1), symbol('grow', 4, 8, 1)]),
  symbol('scale', 8, 4, 1),
];
const stub: DocumentSymbol[] = [
  symbol('Box', 0, 6, 3, [symbol('size', 1, 4, 0), symbol('grow', 3, 8, 0)]),
  symbol('pick', 5, 4, 0),
  symbol('pick', 7, 4, 0),
];

describe('chainAt and namedBy', () => {
  test("a method's chain is its class's name and its own, found where its name is", () => {
    expect(chainAt(implementation, { line: 4, character: 10 })).toEqual(['Box', 'grow']);
    expect(chainAt(implementation, { line: 8, character: 4 })).toEqual(['scale']);
  });

  test('a place in a body but in no name has no chain', () => {
    expect(chainAt(implementation, { line: 5, character: 2 })).toBeUndefined();
  });

  test("the stub's method of the same chain, and every overload of a name", () => {
    expect(namedBy(stub, ['Box', 'grow'])).toEqual([range(3, 8, 3, 12)]);
    expect(namedBy(stub, ['pick'])).toEqual([range(5, 4, 5, 8), range(7, 4, 7, 8)]);
    expect(namedBy(stub, ['Box', '__init__'])).toEqual([]);
  });
});

describe('joinEdits', () => {
  const edit = (line: number, start: number, end: number, newText: string): TextEdit => ({
    range: range(line, start, line, end),
    newText,
  });
  const text = 'def scale(box):\n    return scale\n';

  test('an edit both renames give is made once; the others all are', () => {
    const atStub = { changes: { 'file:///w/box.py': [edit(0, 4, 9, 'resize')], 'file:///w/app.py': [] } };
    const atImpl = {
      documentChanges: [
        {
          textDocument: { uri: 'file:///w/box.py', version: 3 },
          edits: [edit(0, 4, 9, 'resize'), edit(1, 11, 16, 'resize')],
        },
      ],
    };
    const joined = joinEdits([atStub, atImpl]);
    expect(joined.conflict).toBeUndefined();
    const plan = planWorkspaceEdit(joined.edit, () => text, 'utf-16');
    expect(plan.files.map((f) => [f.path, f.after, f.edits])).toEqual([
      ['/w/box.py', 'def resize(box):\n    return resize\n', 2],
    ]);
  });

  test('two edits that change the same text differently name the file', () => {
    const a = { changes: { 'file:///w/box.py': [edit(0, 4, 9, 'resize')] } };
    const b = { changes: { 'file:///w/box.py': [edit(0, 4, 9, 'grow')] } };
    expect(joinEdits([a, b]).conflict).toBe('/w/box.py');
    const overlapping = { changes: { 'file:///w/box.py': [edit(0, 6, 12, 'x')] } };
    expect(joinEdits([a, overlapping]).conflict).toBe('/w/box.py');
  });

  test('edits side by side in one file do not conflict', () => {
    const a = { changes: { 'file:///w/box.py': [edit(0, 4, 9, 'resize')] } };
    const b = { changes: { 'file:///w/box.py': [edit(0, 9, 9, '_')] } };
    expect(joinEdits([a, b]).conflict).toBeUndefined();
  });
});

describe('pairedMove', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-stub-sides-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'kit'));
  for (const f of ['kit/box.py', 'kit/box.pyi', 'kit/alone.py', 'kit/taken.pyi']) writeFileSync(join(dir, f), '');
  const at = (f: string) => join(dir, f);
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return err instanceof LspqError ? [err.code, err.message] : err;
    }
    return 'not refused';
  };

  test('a module moves with its stub, and a stub with its module', () => {
    expect(pairedMove(at('kit/box.py'), at('kit/crate.py'), dir)).toEqual({
      from: at('kit/box.pyi'),
      to: at('kit/crate.pyi'),
    });
    expect(pairedMove(at('kit/box.pyi'), at('lib/crate.pyi'), dir)).toEqual({
      from: at('kit/box.py'),
      to: at('lib/crate.py'),
    });
  });

  test('a module without a stub moves alone', () => {
    expect(pairedMove(at('kit/alone.py'), at('kit/crate.py'), dir)).toBeUndefined();
  });

  test('a new name that splits the pair, or a taken place for the other, is refused', () => {
    expect(refusal(() => pairedMove(at('kit/box.pyi'), at('kit/crate.txt'), dir))).toEqual([
      'usage',
      'kit/box.pyi moves with its module kit/box.py: name a new path ending in .pyi, so the module follows; nothing was moved',
    ]);
    expect(refusal(() => pairedMove(at('kit/box.py'), at('kit/taken.py'), dir))).toEqual([
      'usage',
      'kit/box.py moves with its stub kit/box.pyi, and kit/taken.pyi exists; nothing was moved (name a path whose stub is free)',
    ]);
  });
});
