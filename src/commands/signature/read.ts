/** signature: what a server's signature help says, read into lspq's words; and where a call's arguments begin. */
import type { MarkupContent, SignatureHelp } from 'vscode-languageserver-protocol';
import type { Signature, SignatureResult } from './question';

const text = (d: string | MarkupContent | undefined) =>
  (d === undefined ? '' : typeof d === 'string' ? d : d.value).trim();

/** The signatures, each parameter written as its label writes it, and which is active (clamped to what there is). */
export function signaturesOf(help: SignatureHelp | null | undefined): Pick<SignatureResult, 'signatures' | 'active'> {
  const list = help?.signatures ?? [];
  const signatures: Signature[] = list.map((s) => ({
    label: s.label,
    documentation: text(s.documentation),
    parameters: (s.parameters ?? []).map((p) => ({
      // An offset pair counts UTF-16 units of the label, as JavaScript strings do.
      label: typeof p.label === 'string' ? p.label : s.label.slice(p.label[0], p.label[1]),
      documentation: text(p.documentation),
    })),
  }));
  if (signatures.length === 0) return { signatures, active: null };
  const at = Math.min(Math.max(help?.activeSignature ?? 0, 0), signatures.length - 1);
  // The signature's own active parameter wins over the answer's (LSP 3.16); past the last is none.
  const raw = list[at]?.activeParameter ?? help?.activeParameter ?? null;
  const count = signatures[at]?.parameters.length ?? 0;
  const parameter = raw !== null && raw >= 0 && raw < count ? raw : null;
  return { signatures, active: { signature: at, parameter } };
}

/**
 * Where a target on a callee's name (`scale` of `scale(a, b)`) asks: just
 * inside its parentheses, where a server answers for the call. A place
 * elsewhere (an argument) is kept. `index` counts UTF-16 units of `line`.
 */
export function intoCall(line: string, index: number): number {
  const callee = /^[\p{L}\p{N}_$]+(?:<[^<>()]*>)?\s*\(/u.exec(line.slice(index));
  return callee ? index + callee[0].length : index;
}
