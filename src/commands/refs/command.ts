/** refs: the references to the symbol at a target. */
import { contextArgs, indexArgs, targetArgs } from '../common-args';
import { defineCommand } from '../define';
import { locationsRun } from '../locations/run';
import { LocationsShape } from '../locations/shape';

export const refs = defineCommand({
  summary: 'references to the symbol at TARGET',
  args: {
    ...targetArgs,
    ...indexArgs,
    ...contextArgs,
    'include-declaration': { type: 'boolean', description: 'Also list the declaration itself' },
  },
  examples: [
    'lspq refs shapes/shape.py:7:Shape',
    'lspq refs geometry.go:17:TotalArea --include-declaration',
    'lspq refs --symbol total_area --json',
  ],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: { refs: async () => (await import('./handler')).refs },
  run: locationsRun('refs', 'references to'),
  shape: LocationsShape,
  capabilities: { refs: (c) => !!c.referencesProvider },
});
