/** signature: a place inside a call's arguments asked; the callee's signatures answered. */
import type { CallerContext } from '../../answers/caller';
import type { ResolvedTarget } from '../../answers/places';
import type { TargetSpec } from '../../common/target';

export interface SignatureQuery extends CallerContext {
  op: 'signature';
  target: TargetSpec;
}

export interface SignatureParameter {
  /** As the signature's label writes it. */
  label: string;
  documentation: string;
}

export interface Signature {
  label: string;
  documentation: string;
  parameters: SignatureParameter[];
}

export interface SignatureResult {
  target: ResolvedTarget;
  server: string;
  root: string;
  /** The callee's signatures, overloads in the server's order. */
  signatures: Signature[];
  /** Which signature and parameter the place is at (0-based); null where the server says none. */
  active: { signature: number; parameter: number | null } | null;
}
