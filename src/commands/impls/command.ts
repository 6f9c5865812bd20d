/** impls: the implementations of an interface, abstract method or type. */
import { declarationArgs } from '../common-args';
import { defineCommand } from '../define';
import { locationsRun } from '../locations/run';
import { LocationsShape } from '../locations/shape';

export const impls = defineCommand({
  summary: 'implementations of an interface, abstract method or type',
  args: declarationArgs,
  examples: ['lspq impls src/shape.ts:4:area', 'lspq impls shape.go:4:Shape --json'],
  process: 'daemon',
  mcp: { kind: 'question' },
  handlers: { impls: async () => (await import('./handler')).impls },
  run: locationsRun('impls', 'implementations of'),
  shape: LocationsShape,
  capabilities: { impls: (c) => !!c.implementationProvider },
});
