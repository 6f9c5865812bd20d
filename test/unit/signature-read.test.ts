/** signature's reading of a server's answer, and where a callee's call begins: pure, every case exact. */
import { describe, expect, test } from 'bun:test';
import { intoCall, signaturesOf } from '../../src/commands/signature/read';

describe('signaturesOf', () => {
  test('parameters by offsets into the label or by their own text; documentation markup or plain', () => {
    expect(
      signaturesOf({
        signatures: [
          {
            label: 'scale(x: number, by: number): number',
            documentation: { kind: 'markdown', value: 'Scales.\n' },
            parameters: [{ label: [6, 15] }, { label: 'by: number', documentation: 'how many' }],
          },
        ],
        activeSignature: 0,
        activeParameter: 1,
      }),
    ).toEqual({
      signatures: [
        {
          label: 'scale(x: number, by: number): number',
          documentation: 'Scales.',
          parameters: [
            { label: 'x: number', documentation: '' },
            { label: 'by: number', documentation: 'how many' },
          ],
        },
      ],
      active: { signature: 0, parameter: 1 },
    });
  });

  test("a signature's own active parameter wins; one past the last, or none, is null; the active signature is clamped", () => {
    const two = [
      { label: 'f(a)', parameters: [{ label: 'a' }], activeParameter: 0 },
      { label: 'f(a, b)', parameters: [{ label: 'a' }, { label: 'b' }] },
    ];
    expect(signaturesOf({ signatures: two, activeSignature: 0, activeParameter: 1 }).active).toEqual({
      signature: 0,
      parameter: 0,
    });
    expect(signaturesOf({ signatures: two, activeSignature: 1, activeParameter: 2 }).active).toEqual({
      signature: 1,
      parameter: null,
    });
    expect(signaturesOf({ signatures: two, activeSignature: 9 }).active).toEqual({ signature: 1, parameter: null });
    expect(signaturesOf({ signatures: [] })).toEqual({ signatures: [], active: null });
    expect(signaturesOf(null)).toEqual({ signatures: [], active: null });
  });
});

describe('intoCall', () => {
  test("at a callee's name: just inside its parentheses, past type arguments and spaces; elsewhere: kept", () => {
    expect(intoCall('const a = scale(2, 3);', 10)).toBe(16);
    expect(intoCall('const a = make<T>  (2);', 10)).toBe(20);
    expect(intoCall('x := s.Área(2)', 7)).toBe(12);
    expect(intoCall('const a = scale(2, 3);', 19)).toBe(19);
    expect(intoCall('const a = scale;', 10)).toBe(10);
  });
});
