import { navSuite } from '../helpers/nav';

const DEF = 'src/geometry.ts:13:17: export function totalArea(shapes: Shape[], unit: Unit): string {\n';
const REFS_SHAPE = [
  "src/circle.ts:1:15: import type { Shape } from './shape';",
  'src/circle.ts:3:32: export class Circle implements Shape {  (in Circle)',
  "src/geometry.ts:1:15: import type { Shape, Unit } from './shape';",
  'src/geometry.ts:3:31: export function areaOf(shape: Shape): number {  (in areaOf)',
  'src/geometry.ts:7:34: export function sumAreas(shapes: Shape[]): number {  (in sumAreas)',
  'src/geometry.ts:13:35: export function totalArea(shapes: Shape[], unit: Unit): string {  (in totalArea)',
  "src/main.ts:4:15: import type { Shape } from './shape';",
  'src/main.ts:6:15: const shapes: Shape[] = [new Circle(1), new Square(2)];  (in shapes)',
  "src/square.ts:1:15: import type { Shape, Unit } from './shape';",
  'src/square.ts:3:32: export class Square implements Shape {  (in Square)',
  '',
].join('\n');
const IMPLS = 'src/circle.ts:6:3: area(): number {\nsrc/square.ts:7:3: area(): number {\n';

// TypeScript 7's native server (tsc --lsp), found in the repository's node_modules.
navSuite('ts-shapes', [
  {
    name: 'def from a line with emoji and CJK text (cold: not the import line)',
    args: ['def', 'src/main.ts:7:totalArea'],
    stdout: DEF,
    cold: true,
  },
  { name: 'def by code-point column', args: ['def', 'src/main.ts:7:36'], stdout: DEF },
  { name: 'refs of an interface across files', args: ['refs', 'src/shape.ts:2:Shape'], stdout: REFS_SHAPE, cold: true },
  { name: 'impls of an interface method', args: ['impls', 'src/shape.ts:4:area'], stdout: IMPLS, cold: true },
  {
    name: 'incoming calls three deep',
    args: ['calls', 'src/geometry.ts:3:areaOf', '--depth', '3'],
    stdout: expect3deep(),
  },
  {
    name: 'outgoing calls',
    args: ['calls', 'src/geometry.ts:13:totalArea', '--out'],
    stdout: 'src/geometry.ts:13:17: function totalArea\nsrc/geometry.ts:7:17:   → function sumAreas\n',
  },
  {
    name: '--symbol Outer.inner',
    args: ['def', '--symbol', 'Circle.area'],
    stdout: 'src/circle.ts:6:3: area(): number {\n',
  },
  {
    name: 'workspace symbols',
    args: ['symbols', '-w', 'total'],
    stdout: 'src/geometry.ts:13:17: function totalArea\n',
  },
  {
    name: 'hover',
    args: ['hover', 'src/geometry.ts:7:sumAreas'],
    stdout: '```typescript\nfunction sumAreas(shapes: Shape[]): number\n```\n',
  },
]);

// typescript-language-server on TypeScript 5's tsserver, from .tools.
navSuite('ts-shapes', [
  {
    name: 'tsserver: def cold (the syntax server would answer with the import line)',
    args: ['def', 'src/main.ts:7:totalArea', '--server', 'typescript-language-server'],
    stdout: DEF,
    cold: true,
  },
  {
    name: 'tsserver: refs',
    args: ['refs', 'src/shape.ts:2:Shape', '--server', 'typescript-language-server'],
    stdout: REFS_SHAPE,
  },
  {
    name: 'tsserver: impls',
    args: ['impls', 'src/shape.ts:4:area', '--server', 'typescript-language-server'],
    stdout: IMPLS,
  },
]);

function expect3deep(): string {
  const main = `${import.meta.dir.replace(/\/test\/integration$/, '')}/test/fixtures/ts-shapes/src/main.ts`;
  return `src/geometry.ts:3:17: function areaOf\nsrc/geometry.ts:7:17:   ← function sumAreas\nsrc/geometry.ts:13:17:     ← function totalArea\nsrc/main.ts:1:1:       ← module ${main}\n`;
}
