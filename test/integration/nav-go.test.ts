import { navSuite } from '../helpers/nav';

navSuite('go-shapes', [
  {
    name: 'def across files from a line with emoji and CJK text',
    args: ['def', 'main.go:7:TotalArea'],
    stdout: 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
    cold: true,
  },
  {
    name: 'def by code-point column on the same line',
    args: ['def', 'main.go:7:32'],
    stdout: 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
  },
  {
    name: 'refs across files, code-point columns back out',
    args: ['refs', 'geometry.go:17:TotalArea'],
    stdout: 'main.go:7:32: 名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm"))  (in main)\n',
    cold: true,
  },
  {
    name: 'refs of a type used across files',
    args: ['refs', 'shape.go:4:Shape'],
    stdout: [
      'geometry.go:5:19: func areaOf(shape Shape) float64 {  (in areaOf)',
      'geometry.go:9:24: func sumAreas(shapes []Shape) float64 {  (in sumAreas)',
      'geometry.go:17:25: func TotalArea(shapes []Shape, unit Unit) string {  (in TotalArea)',
      'main.go:6:14: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}  (in main)',
      '',
    ].join('\n'),
  },
  {
    name: 'refs --include-declaration',
    args: ['refs', 'geometry.go:5:areaOf', '--include-declaration'],
    stdout:
      'geometry.go:5:6: func areaOf(shape Shape) float64 {\ngeometry.go:12:10: sum += areaOf(shape)  (in sumAreas)\n',
  },
  {
    name: 'impls of an interface method',
    args: ['impls', 'shape.go:5:Area'],
    stdout: 'circle.go:9:17: func (c Circle) Area() float64 {\nsquare.go:8:17: func (s Square) Area() float64 {\n',
    cold: true,
  },
  { name: 'typedef', args: ['typedef', 'main.go:6:shapes'], stdout: 'shape.go:4:6: type Shape interface {\n' },
  {
    name: 'hover',
    args: ['hover', 'geometry.go:9:sumAreas'],
    stdout: '```go\nfunc sumAreas(shapes []Shape) float64\n```\n',
  },
  {
    name: 'document symbols',
    args: ['symbols', 'geometry.go'],
    stdout:
      'geometry.go:5:6: function areaOf func(shape Shape) float64\ngeometry.go:9:6: function sumAreas func(shapes []Shape) float64\ngeometry.go:17:6: function TotalArea func(shapes []Shape, unit Unit) string\n',
  },
  {
    name: 'incoming calls three deep',
    args: ['calls', 'geometry.go:5:areaOf', '--depth', '3'],
    stdout:
      'geometry.go:5:6: function areaOf\ngeometry.go:9:6:   ← function sumAreas\ngeometry.go:17:6:     ← function TotalArea\nmain.go:5:6:       ← function main\n',
  },
  {
    name: "an interface method's callers: a method, where gopls's call hierarchy says function",
    args: ['calls', 'shape.go:5:Area'],
    stdout: 'shape.go:5:2: method Area  (in Shape)\ngeometry.go:5:6:   ← function areaOf\n',
  },
  {
    name: 'outgoing calls into the standard library',
    args: ['calls', 'geometry.go:17:TotalArea', '--out'],
    stdout: expectOutgoing(),
  },
  {
    name: '--symbol with Outer.inner',
    args: ['def', '--symbol', 'Circle.Area'],
    stdout: 'circle.go:9:17: func (c Circle) Area() float64 {\n',
  },
  {
    name: '--symbol that is ambiguous lists candidates as targets',
    args: ['def', '--symbol', 'Area'],
    stdout: '',
    exit: 2,
    stderr: /'Area' names 3 symbols.*shape\.go:5:2\).*circle\.go:9:17\).*square\.go:8:17\)/,
  },
]);

function expectOutgoing(): string {
  const goroot = Bun.spawnSync(['go', 'env', 'GOROOT']).stdout.toString().trim();
  return `geometry.go:17:6: function TotalArea\n${goroot}/src/fmt/print.go:237:6:   → function Sprintf\ngeometry.go:9:6:   → function sumAreas\n`;
}
