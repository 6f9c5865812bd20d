/** signature: the signatures of the call at a target, its active parameter and documentation. */
import { targetArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { targetFrom } from '../options';
import { targetWords } from '../../render/place-json';
import { renderSignature, signatureJson } from './render';
import { SignatureShape } from './shape';

export const signature = defineCommand({
  summary: "signatures of the call at TARGET (a callee's name or a place in its arguments)",
  args: targetArgs,
  examples: ['lspq signature main.go:7:TotalArea', 'lspq signature src/main.ts:7:totalArea --json'],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: { signature: async () => (await import('./handler')).signature },
  run: async (args, { line, ask }) => {
    const result = await ask({ op: 'signature', target: targetFrom(args, line.cwd) }, args);
    return present(
      result,
      args.json,
      {
        human: renderSignature,
        json: signatureJson,
        found: (r) => r.signatures.length > 0,
        nothing: (r, cwd) =>
          `no call at ${targetWords(r.target, cwd)} (a signature is asked inside a call's parentheses, or at the callee's name)`,
      },
      line,
    );
  },
  shape: SignatureShape,
  capabilities: { signature: (c) => !!c.signatureHelpProvider },
});
