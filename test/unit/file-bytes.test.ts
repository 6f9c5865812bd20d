/**
 * Byte-exact edits of files that are not UTF-8: the map from the decoded
 * text back to the bytes agrees with the decoder unit for unit, and an edit
 * applied to the bytes leaves every other byte as it was.
 */
import { describe, expect, test } from 'bun:test';
import { applyToBytes, byteMap, decodeLossy, isUtf8 } from '../../src/lsp/file-bytes';
import { planWorkspaceEdit } from '../../src/lsp/workspace-edit';

const b = (text: string) => Buffer.from(text, 'latin1');

describe('byteMap', () => {
  test('matches the decoder unit for unit on random bytes (invalid sequences, truncated ones, astral characters)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const pool = [0x41, 0x0a, 0xe9, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x8e, 0x89, 0xed, 0xa0, 0x80, 0xff, 0xc0];
    for (let round = 0; round < 2000; round++) {
      const bytes = Uint8Array.from({ length: random() % 24 }, () => pool[random() % pool.length]!);
      const text = decodeLossy(bytes);
      const map = byteMap(bytes);
      expect(map.start.length).toBe(text.length + 1);
      // Each character's bytes, decoded alone, give that character back.
      for (let k = 0; k < text.length; ) {
        let next = k + 1;
        while (next < text.length && map.start[next] === map.start[k]) next++;
        const chunk = bytes.subarray(map.start[k]!, map.start[next]!);
        if (map.invalid[k]) expect(text.slice(k, next)).toBe('\uFFFD');
        else expect(decodeLossy(chunk)).toBe(text.slice(k, next));
        k = next;
      }
    }
  });
});

describe('applyToBytes', () => {
  test('an edit beside a Latin-1 byte keeps it', () => {
    const bytes = b('caf\xe9 = helper;\n');
    const text = decodeLossy(bytes);
    const at = text.indexOf('helper');
    expect(applyToBytes(bytes, [{ start: at, end: at + 6, text: 'twice' }], 'f')).toEqual(b('caf\xe9 = twice;\n'));
  });

  test('an edit over an undecodable byte, or one that writes U+FFFD, is refused', () => {
    const bytes = b('x\xe9y\n');
    expect(() => applyToBytes(bytes, [{ start: 0, end: 3, text: 'z' }], 'f.ts')).toThrow(/f.ts is not UTF-8/);
    expect(() => applyToBytes(bytes, [{ start: 0, end: 1, text: '\uFFFD' }], 'f.ts')).toThrow(/not UTF-8/);
  });
});

describe('planWorkspaceEdit on a file that is not UTF-8', () => {
  test('plans on the bytes: the plan carries them, CRLF line ends kept in the new text', () => {
    const bytes = b('// caf\xe9\r\nold\r\n');
    const text = decodeLossy(bytes);
    expect(isUtf8(bytes)).toBe(false);
    const uri = 'file:///p/a.ts';
    const plan = planWorkspaceEdit(
      {
        changes: {
          [uri]: [
            { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } }, newText: 'new\nline' },
          ],
        },
      },
      () => text,
      'utf-16',
      () => bytes,
    );
    expect(plan.files[0]!.bytes?.after).toEqual(b('// caf\xe9\r\nnew\r\nline\r\n'));
  });
});
