import { navSuite } from '../helpers/nav';

navSuite('rust-shapes', [
  {
    name: 'def from a line with emoji and CJK text (cold: rust-analyzer must be quiescent)',
    args: ['def', 'src/main.rs:13:total_area'],
    stdout: 'src/geometry.rs:15:8: pub fn total_area(shapes: &[Box<dyn Shape>], unit: Unit) -> String {\n',
    cold: true,
  },
  {
    name: 'def by code-point column',
    args: ['def', 'src/main.rs:13:44'],
    stdout: 'src/geometry.rs:15:8: pub fn total_area(shapes: &[Box<dyn Shape>], unit: Unit) -> String {\n',
  },
  {
    name: 'impls of a trait method',
    args: ['impls', 'src/shape.rs:3:area'],
    stdout: 'src/circle.rs:8:8: fn area(&self) -> f64 {\nsrc/square.rs:9:8: fn area(&self) -> f64 {\n',
    cold: true,
  },
  {
    name: 'incoming calls three deep',
    args: ['calls', 'src/geometry.rs:3:area_of', '--depth', '3'],
    stdout:
      'src/geometry.rs:3:4: function area_of\nsrc/geometry.rs:7:4:   ← function sum_areas\nsrc/geometry.rs:15:8:     ← function total_area\nsrc/main.rs:11:4:       ← function main\n',
  },
  {
    name: "a trait method's callers: a method, where rust-analyzer's call hierarchy says function",
    args: ['calls', 'src/shape.rs:3:area'],
    stdout: 'src/shape.rs:3:8: method area  (in Shape)\nsrc/geometry.rs:3:4:   ← function area_of\n',
  },
  {
    name: '--symbol Outer.inner',
    args: ['def', '--symbol', 'Circle.area'],
    stdout: 'src/circle.rs:8:8: fn area(&self) -> f64 {\n',
  },
]);
