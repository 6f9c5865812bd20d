/** def, typedef, impls and refs: a position asked, places answered. */
import type { Location, ResolvedTarget, Sourced } from '../../answers/places';
import type { TargetSpec } from '../../common/target';

/** The operations answered with locations. */
export type LocationsOp = 'def' | 'typedef' | 'impls' | 'refs';

export interface LocationsQuery {
  op: LocationsOp;
  target: TargetSpec;
  includeDeclaration?: boolean;
  body?: { maxLines: number };
}

export interface LocationsResult extends Sourced {
  target: ResolvedTarget;
  server: string;
  root: string;
  locations: Location[];
  total: number;
  truncated: boolean;
  /** Go's other build configurations asked besides this one (GOOS=windows GOARCH=amd64...). */
  builds?: string[];
  /** Files that write the name and that the server could not search: not searched (exit 3). */
  unsearched?: string[];
  /** Why they were not searched, and what would search them (default: no build configuration asked compiles them). */
  unsearchedBecause?: string;
  /** What an index's answer may lack that the live server would give (--index-only; exit 3). */
  partial?: string;
}

/** The engine's answer to one of them (each command's handler.ts makes its own). */
export type LocationsHandler = (
  request: LocationsQuery & import('../../answers/caller').CallerContext,
  ctx: import('../../engine/context').HandlerContext,
) => Promise<LocationsResult>;
