/**
 * Uses a live server counts that an index does not record, found in the
 * text of an index answer's files: a JSDoc tag naming the symbol
 * (TypeScript counts `{@link X}`, `@see X`, `@param x`; scip-typescript
 * records none), and `Self` inside an impl block of a Rust type
 * (rust-analyzer counts it; its SCIP index does not). Where one is found,
 * the live server answers, or the index's answer says what it may lack.
 */
import type { TextSource } from '../lsp/convert';

export interface Unrecorded {
  path: string;
  line: number;
  /** What the index's answer lacks, in the words of its message. */
  what: string;
}

/** A JSDoc tag that names `name` (`{@link name}`, `@see name`, `@param name`). */
function jsdocNaming(name: string): RegExp {
  const n = name.replace(/[$]/g, '\\$');
  return new RegExp(
    String.raw`(?:@(?:link|linkcode|linkplain|see)\s+(?:[\p{L}\p{N}_$]+[.#])*|@param\s+(?:\{[^}]*\}\s+)?\[?)${n}(?![\p{L}\p{N}_$])`,
    'u',
  );
}

const JSDOC_LINE = /^\s*(?:\/\*\*|\*)/;
const IMPL_HEADER = /^(\s*)(?:unsafe\s+)?impl\b/;

/** The first `Self` inside the impl block whose header is line `header` (0-based), up to its closing brace. */
function selfInBlock(lines: string[], header: number): number | undefined {
  const indent = IMPL_HEADER.exec(lines[header] ?? '')?.[1] ?? '';
  for (let i = header; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (i > header && line.startsWith(`${indent}}`)) return undefined;
    if (/\bSelf\b/.test(line.replace(/\/\/.*$/, ''))) return i;
  }
  return undefined;
}

/**
 * The first use of the symbol named `name` that the index does not record,
 * in the files of `places` (an index answer's, 1-based lines).
 */
export function unrecordedUse(
  places: { path: string; line: number; column: number }[],
  name: string,
  texts: TextSource,
): Unrecorded | undefined {
  const naming = jsdocNaming(name);
  for (const path of [...new Set(places.map((p) => p.path))]) {
    if (!/\.[cm]?[jt]sx?$/.test(path)) continue;
    const index = (texts.lines(path) ?? []).findIndex((l) => JSDOC_LINE.test(l) && naming.test(l));
    if (index >= 0) return { path, line: index + 1, what: 'the JSDoc tags that name it, which TypeScript counts' };
  }
  for (const p of places) {
    if (!p.path.endsWith('.rs')) continue;
    const lines = texts.lines(p.path) ?? [];
    const header = lines[p.line - 1] ?? '';
    // `Self` is the implementing type: the one after `for` where the block implements a trait.
    const forAt = [...header].join('').search(/\bfor\b/);
    if (!IMPL_HEADER.test(header) || (forAt >= 0 && [...header.slice(0, forAt)].length >= p.column)) continue;
    const at = selfInBlock(lines, p.line - 1);
    if (at !== undefined)
      return { path: p.path, line: at + 1, what: 'the uses as `Self` in its impl blocks, which rust-analyzer counts' };
  }
  return undefined;
}
