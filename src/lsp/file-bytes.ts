/**
 * Files that are not valid UTF-8 (Latin-1 or Windows-1252 bytes in a
 * comment). A server is given such a file decoded with U+FFFD for each
 * invalid sequence, and its edits count positions in that text; written
 * back as text, every invalid byte of the file would become the three bytes
 * of U+FFFD, on lines the edit never touched. So an edit is applied to the
 * file's bytes: each position of the decoded text maps back to the byte
 * where its character began, and every byte outside the edit's ranges
 * stays as it was. An edit that would replace or insert an undecodable
 * character cannot be carried through exactly and is refused.
 */
import { LspqError } from '../common/errors';

const REPLACEMENT = 0xfffd;
const strict = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');

/** Whether `bytes` are valid UTF-8 (decode and encode give them back). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The text a server is given for `bytes`: UTF-8, each invalid sequence as U+FFFD. */
export const decodeLossy = (bytes: Uint8Array) => lossy.decode(bytes);

export interface ByteMap {
  /** For each UTF-16 unit of the decoded text (and one past its end), the byte where its character starts. */
  start: Uint32Array;
  /** For each unit: it stands for bytes that were not UTF-8. */
  invalid: Uint8Array;
}

/**
 * The decoded text's units mapped to the bytes, decoding as the WHATWG
 * UTF-8 decoder does (each maximal invalid subpart is one U+FFFD), so the
 * text matches `decodeLossy` unit for unit.
 */
export function byteMap(bytes: Uint8Array): ByteMap {
  const start: number[] = [];
  const invalid: number[] = [];
  const emit = (at: number, codePoint: number, bad: boolean) => {
    const units = codePoint > 0xffff ? 2 : 1;
    for (let u = 0; u < units; u++) {
      start.push(at);
      invalid.push(bad ? 1 : 0);
    }
  };
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let codePoint = 0;
  let from = 0;
  // By index, not for...of: a sequence that breaks off reads its last byte again (i--).
  for (let i = 0, b = bytes[0]; b !== undefined; b = bytes[++i]) {
    if (needed === 0) {
      from = i;
      if (b <= 0x7f) emit(i, b, false);
      else if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
        codePoint = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        needed = 2;
        codePoint = b & 0xf;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        needed = 3;
        codePoint = b & 0x7;
      } else emit(i, REPLACEMENT, true);
      continue;
    }
    if (b < lower || b > upper) {
      // The sequence broke off: it is one U+FFFD, and this byte starts afresh.
      needed = seen = codePoint = 0;
      lower = 0x80;
      upper = 0xbf;
      emit(from, REPLACEMENT, true);
      i--;
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    codePoint = (codePoint << 6) | (b & 0x3f);
    if (++seen === needed) {
      emit(from, codePoint, false);
      needed = seen = codePoint = 0;
    }
  }
  if (needed > 0) emit(from, REPLACEMENT, true);
  start.push(bytes.length);
  return { start: Uint32Array.from(start), invalid: Uint8Array.from(invalid) };
}

/** An edit's place in a text (UTF-16 offsets) and what it puts there. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

const encoder = new TextEncoder();

/**
 * `spans` (sorted, not overlapping, offsets in the decoded text) applied to
 * the bytes they were computed for. Refused, naming `path`, where that
 * cannot leave every other byte as it was.
 */
export function applyToBytes(bytes: Uint8Array, spans: readonly Span[], path: string): Uint8Array {
  const map = byteMap(bytes);
  const refuse = () =>
    new LspqError(
      'not_utf8',
      `${path} is not UTF-8 and the edit would change bytes lspq cannot carry through unchanged; nothing was written (convert the file to UTF-8, or edit it by hand)`,
    );
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const s of spans) {
    for (let k = s.start; k < s.end; k++) if (map.invalid[k]) throw refuse();
    if (s.text.includes('\uFFFD')) throw refuse();
    const at = map.start[s.start];
    const end = map.start[s.end];
    if (at === undefined || end === undefined)
      throw new LspqError('server_failed', `the server's edit for ${path} points past its end; nothing was written`);
    parts.push(bytes.subarray(from, at), encoder.encode(s.text));
    from = end;
  }
  parts.push(bytes.subarray(from));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
