/** typedef: the definition of the type of the symbol at a target. */
import { declarationArgs } from '../common-args';
import { defineCommand } from '../define';
import { locationsRun } from '../locations/run';
import { LocationsShape } from '../locations/shape';

export const typedef = defineCommand({
  summary: 'definition of the type of the symbol at TARGET',
  args: declarationArgs,
  examples: ['lspq typedef main.go:6:shapes', 'lspq typedef src/main.ts:7:totalArea --json'],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: { typedef: async () => (await import('./handler')).typedef },
  run: locationsRun('typedef', 'type definition of'),
  shape: LocationsShape,
  capabilities: { typedef: (c) => !!c.typeDefinitionProvider },
});
