import { navSuite } from '../helpers/nav';

navSuite('py-shapes', [
  {
    name: 'def across files from a line with emoji and CJK text',
    args: ['def', 'main.py:7:total_area'],
    stdout: 'shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:\n',
    cold: true,
  },
  {
    name: 'def by code-point column',
    args: ['def', 'main.py:7:24'],
    stdout: 'shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:\n',
  },
  {
    name: 'refs of a class across files (cold: the workspace must be enumerated first)',
    args: ['refs', 'shapes/shape.py:7:Shape'],
    stdout: [
      'main.py:3:26: from shapes.shape import Shape',
      'main.py:6:14: shapes: list[Shape] = [Circle(1), Square(2)]',
      'shapes/circle.py:3:26: from shapes.shape import Shape',
      'shapes/circle.py:6:14: class Circle(Shape):  (in Circle)',
      'shapes/geometry.py:1:26: from shapes.shape import Shape, Unit',
      'shapes/geometry.py:4:20: def area_of(shape: Shape) -> float:  (in area_of)',
      'shapes/geometry.py:8:28: def sum_areas(shapes: list[Shape]) -> float:  (in sum_areas)',
      'shapes/geometry.py:15:29: def total_area(shapes: list[Shape], unit: Unit) -> str:  (in total_area)',
      'shapes/square.py:1:26: from shapes.shape import Shape, Unit',
      'shapes/square.py:4:14: class Square(Shape):  (in Square)',
      '',
    ].join('\n'),
    cold: true,
  },
  {
    name: 'refs back onto the non-ASCII line',
    args: ['refs', 'shapes/geometry.py:15:total_area'],
    stdout:
      'main.py:2:29: from shapes.geometry import total_area\nmain.py:7:24: 名前 = "🎉 图形"; print(名前, total_area(shapes, "cm"))\n',
  },
  {
    // pyright has no implementation provider; the next installed server that has one answers.
    name: 'impls: pyright does not offer it, basedpyright (installed beside it) answers',
    args: ['impls', 'shapes/shape.py:13:area'],
    stdout: [
      'shapes/circle.py:12:9: def area(self) -> float:',
      'shapes/shape.py:13:9: def area(self) -> float: ...',
      'shapes/square.py:11:9: def area(self) -> float:',
      '',
    ].join('\n'),
  },
  {
    name: 'hover',
    args: ['hover', 'shapes/geometry.py:8:sum_areas'],
    stdout: '```python\n(function) def sum_areas(shapes: list[Shape]) -> float\n```\n',
  },
  {
    name: 'incoming calls three deep',
    args: ['calls', 'shapes/geometry.py:4:area_of', '--depth', '3'],
    stdout:
      'shapes/geometry.py:4:5: function area_of\nshapes/geometry.py:8:5:   ← function sum_areas\nshapes/geometry.py:15:5:     ← function total_area\nmain.py:1:1:       ← module (module) main.py\n',
  },
  {
    name: 'outgoing calls',
    args: ['calls', 'shapes/geometry.py:15:total_area', '--out'],
    stdout: 'shapes/geometry.py:15:5: function total_area\nshapes/geometry.py:8:5:   → function sum_areas\n',
  },
  {
    name: '--symbol Outer.inner',
    args: ['def', '--symbol', 'Circle.area'],
    stdout: 'shapes/circle.py:12:9: def area(self) -> float:\n',
  },
  {
    name: 'symbols sorted by position, --kind filters',
    args: ['symbols', 'shapes/square.py', '--kind', 'class,method'],
    stdout:
      'shapes/square.py:4:7: class Square\nshapes/square.py:8:9:   method __init__\nshapes/square.py:11:9:   method area\n',
  },
]);
