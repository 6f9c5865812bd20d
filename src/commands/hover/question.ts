/** hover: a position asked; the server's text about it answered. */
import type { CallerContext } from '../../answers/caller';
import type { ResolvedTarget, Sourced, Span } from '../../answers/places';
import type { TargetSpec } from '../../common/target';

export interface HoverQuery extends CallerContext {
  op: 'hover';
  target: TargetSpec;
}

export interface HoverResult extends Sourced {
  target: ResolvedTarget;
  server: string;
  root: string;
  contents: string;
  range: Span | null;
}
