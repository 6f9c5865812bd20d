/** signature: a line per signature at the place asked, the active one's parameter and documentation under it. */
import { targetJson } from '../../render/place-json';
import { cleanMarkdown } from '../../render/markdown';
import type { Rendered } from '../../render/rendered';
import { locationPrefix, type RenderOptions } from '../../render/style';
import { displayPath } from '../../common/paths';
import type { SignatureResult } from './question';
import type { SignatureShape } from './shape';
import type * as z from 'zod/mini';

export function signatureJson(r: SignatureResult, cwd: string): z.infer<typeof SignatureShape> {
  return {
    target: targetJson(r.target, cwd),
    server: r.server,
    root: r.root,
    signatures: r.signatures.map((s) => ({
      ...s,
      documentation: cleanMarkdown(s.documentation),
      parameters: s.parameters.map((p) => ({ ...p, documentation: cleanMarkdown(p.documentation) })),
    })),
    active: r.active,
  };
}

const indented = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `  ${l}` : ''))
    .join('\n');

export function renderSignature(r: SignatureResult, o: RenderOptions): Rendered {
  const at = locationPrefix(o, displayPath(r.target.path, o.cwd), r.target.line, r.target.column);
  const lines: string[] = [];
  r.signatures.forEach((s, i) => {
    const active = r.active?.signature === i;
    lines.push(`${at} ${s.label}${active && r.signatures.length > 1 ? '  (active)' : ''}`);
    if (!active) return;
    const p = r.active?.parameter;
    const param = p !== null && p !== undefined ? s.parameters[p] : undefined;
    if (param) {
      const doc = cleanMarkdown(param.documentation);
      lines.push(
        `  parameter ${(p ?? 0) + 1} of ${s.parameters.length}: ${param.label}${doc ? ` - ${doc.split('\n')[0]}` : ''}`,
      );
    }
    const doc = cleanMarkdown(s.documentation);
    if (doc) lines.push(indented(doc));
  });
  return { stdout: lines.length ? `${lines.join('\n')}\n` : '' };
}
