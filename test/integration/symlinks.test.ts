/** A symlink to a file inside a project is answered from that project; locations in it are shown as the link the user named. */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyFixture, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const project = copyFixture('go-shapes');
// Outside any project: no go.mod above it, so only the link's target can give the root.
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-links-')));
symlinkSync(join(project, 'main.go'), join(outside, 'entry.go'));
symlinkSync(join(project, 'geometry.go'), join(outside, 'geo.go'));

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(project, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test('def through a link: the project of the linked file answers, elsewhere printed absolute', async () => {
  const r = await lspq.run(['def', 'entry.go:7:TotalArea'], { cwd: outside });
  expect({ stdout: r.stdout, exit: r.exit }).toEqual({
    stdout: `${project}/geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n`,
    exit: 0,
  });
});

test('locations in the linked file are shown as the link; the rest of the project as it is', async () => {
  const r = await lspq.run(['refs', 'geo.go:9:sumAreas', '--include-declaration'], { cwd: outside });
  expect(r.stdout).toBe(
    'geo.go:9:6: func sumAreas(shapes []Shape) float64 {\ngeo.go:18:31: return fmt.Sprintf("%v %s²", sumAreas(shapes), unit)  (in TotalArea)\n',
  );
  const json = await lspq.json<{ target: { path: string }; root: string }>(['refs', 'geo.go:9:sumAreas'], {
    cwd: outside,
  });
  expect(json.target.path).toBe('geo.go');
  expect(json.root).toBe(project);
});

test("symbols of a link: the linked file's symbols", async () => {
  const r = await lspq.run(['symbols', 'geo.go'], { cwd: outside });
  expect(r.stdout).toBe(
    'geo.go:5:6: function areaOf func(shape Shape) float64\ngeo.go:9:6: function sumAreas func(shapes []Shape) float64\ngeo.go:17:6: function TotalArea func(shapes []Shape, unit Unit) string\n',
  );
});

test('a current directory reached through a linked folder: paths relative to it, as before', async () => {
  const linkedDir = join(outside, 'project');
  symlinkSync(project, linkedDir);
  const r = await lspq.run(['refs', 'shape.go:4:Shape'], { cwd: linkedDir });
  expect(r.stdout).toBe(
    [
      'geometry.go:5:19: func areaOf(shape Shape) float64 {  (in areaOf)',
      'geometry.go:9:24: func sumAreas(shapes []Shape) float64 {  (in sumAreas)',
      'geometry.go:17:25: func TotalArea(shapes []Shape, unit Unit) string {  (in TotalArea)',
      'main.go:6:14: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}  (in main)',
      '',
    ].join('\n'),
  );
});

describe('a TypeScript file linked inside its own project (src/shape.ts -> shadow/shape.ts)', () => {
  // The unlinked project's answers: the declaration is not among its references.
  const both = [
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
  ].join('\n');
  const unlinked: Record<string, string> = { typescript: both, 'typescript-language-server': both };
  const link = (dir: string) => {
    mkdirSync(join(dir, 'shadow'));
    renameSync(join(dir, 'src', 'shape.ts'), join(dir, 'shadow', 'shape.ts'));
    symlinkSync('../shadow/shape.ts', join(dir, 'src', 'shape.ts'));
  };

  test.each(Object.keys(unlinked))(
    '%s: refs through the link are the unlinked answer, warm right after mv and ln -s',
    async (server) => {
      const dir = copyFixture('ts-shapes');
      try {
        const refs = () => lspq.run(['refs', 'src/shape.ts:2:Shape', '--server', server], { cwd: dir });
        expect(await refs()).toEqual({ exit: 0, stdout: `${unlinked[server]}\n`, stderr: '' });
        link(dir);
        expect(await refs()).toEqual({ exit: 0, stdout: `${unlinked[server]}\n`, stderr: '' });
        // Asked again with nothing changed.
        expect(await refs()).toEqual({ exit: 0, stdout: `${unlinked[server]}\n`, stderr: '' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test('rename through the link renames every use and writes the file it points to; tsc passes', async () => {
    const dir = copyFixture('ts-shapes');
    try {
      link(dir);
      const r = await lspq.run(['rename', 'src/shape.ts:2:Shape', 'Figure'], { cwd: dir });
      expect(r.exit).toBe(0);
      expect(lstatSync(join(dir, 'src', 'shape.ts')).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(dir, 'shadow', 'shape.ts'), 'utf8')).toContain('export interface Figure {');
      const tsc = Bun.spawnSync([join(REPO, '.tools', 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', dir]);
      expect({ exit: tsc.exitCode, out: tsc.stdout.toString() }).toEqual({ exit: 0, out: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
