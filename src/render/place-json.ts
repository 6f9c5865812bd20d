/** Places in the JSON answers and notes that several commands share: paths shown as the user named them. */
import type { Location, ResolvedTarget, Sourced } from '../answers/places';
import { displayPath } from '../common/paths';

export function locationJson(l: Location, cwd: string): Location {
  return { ...l, path: displayPath(l.path, cwd) };
}

export function targetJson(t: ResolvedTarget, cwd: string): ResolvedTarget {
  return { ...t, path: displayPath(t.path, cwd) };
}

/** A target as a message names it: `helper (lib.js:1:17)`, or the place alone where no name is known. */
export function targetWords(t: ResolvedTarget, cwd: string): string {
  const at = `${displayPath(t.path, cwd)}:${t.line}:${t.column}`;
  return t.symbol ? `${t.symbol} (${at})` : at;
}

/** `source`, and an index answer's stale files as shown. */
export const sourcedJson = (r: Sourced, cwd: string) => ({
  ...(r.source ? { source: r.source } : {}),
  ...(r.stale ? { stale: r.stale.map((p) => displayPath(p, cwd)) } : {}),
});

/**
 * An index answer (--index-only) with files changed since it was built
 * that name what was asked: they may hold more, so it is not the whole
 * answer (exit 3, this line).
 */
export function staleNote(r: Sourced, cwd: string): string | undefined {
  if (r.source !== 'index' || !r.stale?.length) return undefined;
  const some = r.stale.slice(0, 5).map((p) => displayPath(p, cwd));
  const more = r.stale.length > 5 ? `, and ${r.stale.length - 5} more` : '';
  return `the answer may be incomplete: answered from the SCIP index, and ${r.stale.length} file(s) changed since it was built may hold more: ${some.join(', ')}${more}; run 'lspq index' again, or drop --index-only`;
}
