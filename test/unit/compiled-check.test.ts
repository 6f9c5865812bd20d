/**
 * The checks compiled from a shape's JSON Schema (common/compiled-check.ts)
 * judge as zod does: on thousands of values, valid ones and ones broken at
 * a random place in a random way, whatever the compiled check passes zod
 * passes too (and returns unchanged), and every valid value passes it.
 */
import { describe, expect, test } from 'bun:test';
import * as z from 'zod/mini';
import { LocationShape, WorkspaceEditShape } from '../../src/lsp/message-shapes';
import { HoverShape, LocationsOrLinksShape } from '../../src/lsp/requests';
import { fits } from '../../src/common/compiled-check';
import { EnvelopeShape } from '../../src/common/socket-shapes';

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const range = (n: number) => ({ start: { line: n, character: 1 }, end: { line: n, character: 4 } });
const textEdit = (n: number) => ({ range: range(n), newText: 'renamed' });

function workspaceEdit(next: () => number): unknown {
  if (next() < 0.5) return { changes: { 'file:///a.ts': [textEdit(1), textEdit(2)], 'file:///b.ts': [textEdit(3)] } };
  return {
    documentChanges: [
      { textDocument: { uri: 'file:///a.ts', version: next() < 0.5 ? 3 : null }, edits: [textEdit(1)] },
      { kind: 'create', uri: 'file:///c.ts' },
      { kind: 'rename', oldUri: 'file:///c.ts', newUri: 'file:///d.ts', options: { overwrite: true } },
      { kind: 'delete', uri: 'file:///e.ts' },
    ],
  };
}

const BROKEN: unknown[] = [null, undefined, 1, Number.NaN, 'x', [], {}, true, { line: 1 }, '', 'bad id!'];

/** `value` with one place, chosen at random, replaced by something of another kind. */
function broken(value: unknown, next: () => number): unknown {
  const copy = structuredClone(value);
  const places: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) {
        places.push({ holder: v, key: i });
        walk(x);
      }
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        places.push({ holder: v as Record<string, unknown>, key: k });
        walk(x);
      }
    }
  };
  walk(copy);
  const place = places[Math.floor(next() * places.length)];
  if (!place) return BROKEN[Math.floor(next() * BROKEN.length)];
  const other = BROKEN[Math.floor(next() * BROKEN.length)];
  if (next() < 0.2 && !Array.isArray(place.holder)) delete (place.holder as Record<string, unknown>)[place.key];
  else (place.holder as Record<string | number, unknown>)[place.key] = other;
  return copy;
}

function agree(quick: (v: unknown) => boolean, shape: z.ZodMiniType, make: (next: () => number) => unknown) {
  const next = random(11);
  for (let round = 0; round < 4000; round++) {
    const valid = make(next);
    expect({ round, valid: quick(valid) }).toEqual({ round, valid: true });
    // What reaches a check came through JSON: NaN is null there, an undefined property is no property.
    const once = broken(valid, next);
    const value = once === undefined ? undefined : JSON.parse(JSON.stringify(once));
    if (quick(value))
      expect({ round, value, zod: z.safeParse(shape, value).success }).toEqual({ round, value, zod: true });
  }
}

describe('checks compiled from the shapes of long answers and of the envelope', () => {
  test('a WorkspaceEdit, null or undefined', () => {
    const shape = z.nullish(WorkspaceEditShape);
    agree((v) => fits(shape, v), shape, workspaceEdit);
  });

  test('a list of Locations, null or undefined', () => {
    const shape = z.nullish(z.array(LocationShape));
    agree(
      (v) => fits(shape, v),
      shape,
      (next) =>
        Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i) => ({ uri: `file:///f${i}.ts`, range: range(i) })),
    );
  });

  test('a definition: a Location, Locations and LocationLinks, null or undefined', () => {
    agree(
      (v) => fits(LocationsOrLinksShape, v),
      LocationsOrLinksShape,
      (next) =>
        next() < 0.3
          ? { uri: 'file:///a.go', range: range(2) }
          : Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) =>
              next() < 0.5
                ? { uri: `file:///f${i}.ts`, range: range(i) }
                : {
                    targetUri: `file:///f${i}.ts`,
                    targetRange: range(i),
                    targetSelectionRange: range(i),
                    originSelectionRange: range(0),
                  },
            ),
    );
  });

  test('a hover, null or undefined', () => {
    agree(
      (v) => fits(HoverShape, v),
      HoverShape,
      (next) => {
        const r = next();
        const contents =
          r < 0.4
            ? { kind: 'markdown', value: '```go\nfunc f()\n```' }
            : r < 0.6
              ? 'plain'
              : r < 0.8
                ? { language: 'go', value: 'func f()' }
                : ['a', { language: 'go', value: 'b' }];
        return next() < 0.5 ? { contents, range: range(3) } : { contents };
      },
    );
  });

  test('an envelope, and what zod makes of one it passes is the envelope itself', () => {
    const next = random(23);
    const envelope = (n: () => number): unknown => {
      const r = n();
      const request =
        r < 0.6
          ? {
              op: 'run',
              line: {
                command: 'def',
                args: ['a.ts:1:2', '--json'],
                cwd: '/w',
                env: { PATH: '/bin', HOME: '/h' },
                color: n() < 0.5,
                progress: false,
                json: true,
                help: false,
                ...(n() < 0.5 ? { alsoText: true, timeoutMs: 5000 } : {}),
                ...(n() < 0.5 ? { editId: 'e-1_2' } : {}),
              },
            }
          : r < 0.8
            ? { op: 'outcome', id: 'x' }
            : { op: n() < 0.5 ? 'ping' : 'status' };
      return { protocol: 3, build: 'b1', request };
    };
    const fitsEnvelope = (v: unknown) => fits(EnvelopeShape, v);
    agree(fitsEnvelope, EnvelopeShape, envelope);
    for (let round = 0; round < 2000; round++) {
      const made = next() < 0.5 ? envelope(next) : broken(envelope(next), next);
      const value = made === undefined ? undefined : JSON.parse(JSON.stringify(made));
      if (!fitsEnvelope(value)) continue;
      expect(z.parse(EnvelopeShape, value)).toEqual(value as never);
    }
    // A key the shape does not name: zod drops it, so the compiled check leaves it to zod.
    expect(fitsEnvelope({ protocol: 3, build: 'b', request: { op: 'ping', extra: 1 } })).toBe(false);
    expect(fitsEnvelope({ protocol: 3, build: 'b', request: { op: 'run', line: { command: 'x' } } })).toBe(false);
  });
});
