import { beforeAll } from 'bun:test';
import { prepareCFixture } from '../helpers/lspq';
import { navSuite } from '../helpers/nav';

beforeAll(prepareCFixture);

navSuite('c-shapes', [
  {
    name: 'def across translation units from a line with emoji and CJK text (cold: not the header declaration)',
    args: ['def', 'main.c:7:total_area'],
    stdout: 'geometry.c:16:8: double total_area(const struct shape *shapes, int count)\n',
    cold: true,
  },
  {
    name: 'def by code-point column',
    args: ['def', 'main.c:7:49'],
    stdout: 'geometry.c:16:8: double total_area(const struct shape *shapes, int count)\n',
  },
  {
    name: 'refs of a struct used across files',
    args: ['refs', 'shape.h:5:shape'],
    stdout: [
      'circle.c:3:33: double circle_area(const struct shape *self)  (in circle_area)',
      'geometry.c:3:36: static double area_of(const struct shape *shape)  (in area_of)',
      'geometry.c:8:38: static double sum_areas(const struct shape *shapes, int count)  (in sum_areas)',
      'geometry.c:16:32: double total_area(const struct shape *shapes, int count)  (in total_area)',
      'main.c:6:9: struct shape shapes[] = {{"circle", 1, circle_area}, {"square", 2, square_area}};  (in main)',
      'shape.h:8:30: double (*area)(const struct shape *self);  (in shape.area)',
      'shape.h:11:33: double circle_area(const struct shape *self);  (in circle_area)',
      'shape.h:12:33: double square_area(const struct shape *self);  (in square_area)',
      'shape.h:13:32: double total_area(const struct shape *shapes, int count);  (in total_area)',
      'square.c:3:33: double square_area(const struct shape *self)  (in square_area)',
      '',
    ].join('\n'),
    cold: true,
  },
  { name: 'typedef', args: ['typedef', 'main.c:6:shapes'], stdout: 'shape.h:5:8: struct shape {\n' },
  {
    name: 'incoming calls three deep',
    args: ['calls', 'geometry.c:3:area_of', '--depth', '3'],
    stdout:
      'geometry.c:3:15: function area_of\ngeometry.c:8:15:   ← function sum_areas\ngeometry.c:16:8:     ← function total_area\nmain.c:4:5:       ← function main\n',
  },
  {
    name: 'outgoing calls: clangd 14 lacks them, said as unsupported',
    args: ['calls', 'geometry.c:16:total_area', '--out'],
    stdout: '',
    exit: 3,
    stderr: /clangd does not support callHierarchy\/outgoingCalls/,
  },
  {
    name: '--symbol keeps the definition clangd answers with its declaration',
    args: ['def', '--symbol', 'total_area'],
    stdout:
      'geometry.c:16:8: double total_area(const struct shape *shapes, int count)\nshape.h:13:8: double total_area(const struct shape *shapes, int count);\n',
  },
  {
    name: 'document symbols with details',
    args: ['symbols', 'shape.h'],
    stdout: [
      'shape.h:5:8: struct shape struct',
      'shape.h:6:14:   field name const char *',
      'shape.h:7:9:   field size double',
      'shape.h:8:11:   field area double (*)(const struct shape *)',
      'shape.h:11:8: function circle_area double (const struct shape *)',
      'shape.h:12:8: function square_area double (const struct shape *)',
      'shape.h:13:8: function total_area double (const struct shape *, int)',
      '',
    ].join('\n'),
  },
]);
