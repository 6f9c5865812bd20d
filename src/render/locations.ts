/** def, typedef, impls, refs: one `path:line:col: preview` line per location. */
import type { Location, LocationsResult, ResolvedTarget } from '../queries';
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
  };
}

export function renderLocations(r: LocationsResult, o: RenderOptions): Rendered {
  const places = r.locations.map((l) => {
    const path = displayPath(l.path, o.cwd);
    return { ...l, path, text: `${locationPrefix(o, path, l.line, l.column)} ${l.preview}` };
  });
  const notes = [
    r.truncated ? truncationNote(r.locations.length, r.total, 'locations') : undefined,
    cutBodies(places),
  ].filter((n): n is string => n !== undefined);
  return { stdout: placedLines(places), warning: notes.length ? notes.join('; ') : undefined };
}
