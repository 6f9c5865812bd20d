/** def: the definition(s) of the symbol at a target. */
import { declarationArgs } from '../common-args';
import { defineCommand } from '../define';
import { locationsRun } from '../locations/run';
import { LocationsShape } from '../locations/shape';

export const def = defineCommand({
  summary: 'definition(s) of the symbol at TARGET',
  args: declarationArgs,
  examples: [
    'lspq def main.go:7:TotalArea',
    'lspq def src/main.ts:7:totalArea --json',
    'lspq def --symbol Circle.Area',
  ],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: { def: async () => (await import('./handler')).def },
  run: locationsRun('def', 'definition of'),
  shape: LocationsShape,
  capabilities: { def: (c) => !!c.definitionProvider },
});
