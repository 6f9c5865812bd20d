/** A symlink to a file inside a project is answered from that project; locations in it are shown as the link the user named. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyFixture, Lspq } from '../helpers/lspq';

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
    'geo.go:9:6: func sumAreas(shapes []Shape) float64 {\ngeo.go:18:31: return fmt.Sprintf("%v %s²", sumAreas(shapes), unit)\n',
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
      'geometry.go:5:19: func areaOf(shape Shape) float64 {',
      'geometry.go:9:24: func sumAreas(shapes []Shape) float64 {',
      'geometry.go:17:25: func TotalArea(shapes []Shape, unit Unit) string {',
      'main.go:6:14: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}',
      '',
    ].join('\n'),
  );
});
