/** def, typedef, impls, refs: one `path:line:col: preview` line per location. */
import type { Location, LocationsResult, ResolvedTarget, Sourced } from '../queries';
import { displayPath } from '../protocol/paths';
import { locationPrefix, truncationNote, type RenderOptions } from './style';
import { cutBodies, placedLines } from './excerpts';
import type { LocationsShape } from './json-shapes';
import type { Rendered } from './types';
import type * as z from 'zod/mini';

export function locationJson(l: Location, cwd: string): Location {
  return { ...l, path: displayPath(l.path, cwd) };
}

export function targetJson(t: ResolvedTarget, cwd: string): ResolvedTarget {
  return { ...t, path: displayPath(t.path, cwd) };
}

export function locationsJson(r: LocationsResult, cwd: string): z.infer<typeof LocationsShape> {
  return {
    target: targetJson(r.target, cwd),
    server: r.server,
    root: r.root,
    locations: r.locations.map((l) => locationJson(l, cwd)),
    total: r.total,
    truncated: r.truncated,
    ...sourcedJson(r, cwd),
  };
}

/** `source`, and an index answer's stale files as shown. */
export const sourcedJson = (r: Sourced, cwd: string) => ({
  ...(r.source ? { source: r.source } : {}),
  ...(r.stale ? { stale: r.stale.map((p) => displayPath(p, cwd)) } : {}),
});

/** An index answer's word on the files changed since it was built, which may hold more. */
export function staleNote(r: Sourced, cwd: string): string | undefined {
  if (r.source !== 'index' || !r.stale?.length) return undefined;
  const some = r.stale.slice(0, 5).map((p) => displayPath(p, cwd));
  const more = r.stale.length > 5 ? `, and ${r.stale.length - 5} more` : '';
  return `answered from the SCIP index; ${r.stale.length} file(s) changed since it was built may hold more: ${some.join(', ')}${more} (run 'lspq index' again, or --no-index)`;
}

export function renderLocations(r: LocationsResult, o: RenderOptions): Rendered {
  const places = r.locations.map((l) => {
    const path = displayPath(l.path, o.cwd);
    return { ...l, path, text: `${locationPrefix(o, path, l.line, l.column)} ${l.preview}` };
  });
  const notes = [
    r.truncated ? truncationNote(r.locations.length, r.total, 'locations') : undefined,
    cutBodies(places),
    staleNote(r, o.cwd),
  ].filter((n): n is string => n !== undefined);
  return { stdout: placedLines(places), warning: notes.length ? notes.join('; ') : undefined };
}
