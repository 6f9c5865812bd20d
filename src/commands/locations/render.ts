/** def, typedef, impls, refs: one `path:line:col: preview` line per location. */
import type * as z from 'zod/mini';
import { cutBodies, placedLines } from '../../render/placed-lines';
import { locationJson, sourcedJson, targetJson } from '../../render/place-json';
import { cutLine, locationPrefix, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { LocationsResult } from './question';
import type { LocationsShape } from './shape';

export function locationsJson(r: LocationsResult, cwd: string): z.infer<typeof LocationsShape> {
  return {
    target: targetJson(r.target, cwd),
    server: r.server,
    root: r.root,
    locations: r.locations.map((l) => locationJson(l, cwd)),
    total: r.total,
    truncated: r.truncated,
    ...sourcedJson(r, cwd),
    ...(r.builds?.length ? { builds: r.builds } : {}),
    ...(r.unsearched?.length ? { unsearched: r.unsearched.map((p) => displayPath(p, cwd)) } : {}),
    ...(r.unsearchedBecause ? { unsearchedBecause: r.unsearchedBecause } : {}),
    ...(r.partial ? { partial: r.partial } : {}),
  };
}

export function renderLocations(r: LocationsResult, o: RenderOptions): Rendered {
  const places = r.locations.map((l) => {
    const path = displayPath(l.path, o.cwd);
    // The symbol it sits in after the code, so the line's `path:line:col:` still leads (and it is fed back as a target).
    const within = l.in ? o.colors.dim(`  (in ${l.in.name})`) : '';
    return { ...l, path, text: `${locationPrefix(o, path, l.line, l.column)} ${l.preview}${within}` };
  });
  const bodies = cutBodies(places);
  return {
    stdout: placedLines(places),
    ...(bodies ? { warning: bodies } : {}),
    ...(r.truncated ? { cut: cutLine(r.locations.length, r.total) } : {}),
  };
}
