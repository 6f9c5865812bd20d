/** hover: the signature, type and documentation at a target. */
import { indexArgs, targetArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { targetFrom } from '../options';
import { targetWords } from '../../render/place-json';
import { cleanMarkdown } from '../../render/markdown';
import { hoverJson, renderHover } from './render';
import { HoverShape } from './shape';

export const hover = defineCommand({
  summary: 'signature, type and documentation at TARGET',
  args: { ...targetArgs, ...indexArgs },
  examples: ['lspq hover geometry.go:9:sumAreas', 'lspq hover src/geometry.ts:13:totalArea --json'],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: { hover: async () => (await import('./handler')).hover },
  run: async (args, { line, ask }) => {
    const result = await ask({ op: 'hover', target: targetFrom(args, line.cwd) }, args);
    return present(
      result,
      args.json,
      {
        human: renderHover,
        json: hoverJson,
        found: (r) => cleanMarkdown(r.contents) !== '',
        nothing: (r, cwd) => `no hover information for ${targetWords(r.target, cwd)}`,
      },
      line,
    );
  },
  shape: HoverShape,
  capabilities: { hover: (c) => !!c.hoverProvider },
});
