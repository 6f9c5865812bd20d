/** Go's build constraints as go/build reads them: file names, //go:build expressions, a configuration that compiles a file. */
import { expect, test } from 'bun:test';
import {
  buildFor,
  buildLabel,
  builtUnder,
  envFor,
  importsC,
  nameConstraint,
  satisfies,
  withoutViewLabel,
} from '../../src/engine/go-constraints';

const linux = { goos: 'linux', goarch: 'amd64', cgo: true, tags: [] };

test('file names: _GOOS, _GOARCH, _GOOS_GOARCH, with _test; a bare name is no constraint', () => {
  expect(nameConstraint('/p/b_windows.go')).toEqual({ goos: 'windows' });
  expect(nameConstraint('/p/b_arm64.go')).toEqual({ goarch: 'arm64' });
  expect(nameConstraint('/p/b_darwin_arm64_test.go')).toEqual({ goos: 'darwin', goarch: 'arm64' });
  expect(nameConstraint('/p/linux.go')).toEqual({});
  expect(nameConstraint('/p/zlinux_helper.go')).toEqual({});
});

test('//go:build expressions: !, &&, ||, parentheses, unix, release tags', () => {
  expect(satisfies('linux && amd64', linux)).toBe(true);
  expect(satisfies('windows || (linux && !arm64)', linux)).toBe(true);
  expect(satisfies('!linux', linux)).toBe(false);
  expect(satisfies('unix', linux)).toBe(true);
  expect(satisfies('unix', { ...linux, goos: 'windows' })).toBe(false);
  expect(satisfies('integration', linux)).toBe(false);
  expect(satisfies('integration', { ...linux, tags: ['integration'] })).toBe(true);
  expect(satisfies('go1.21', linux)).toBe(true);
});

test('a configuration that compiles a file: its platform, else its tags, nearest to this one', () => {
  expect(buildFor('/p/b_windows.go', 'package p\n', linux)).toEqual({
    goos: 'windows',
    goarch: 'amd64',
    cgo: false,
    tags: [],
  });
  expect(buildFor('/p/c.go', '//go:build integration\n\npackage p\n', linux)).toEqual({
    goos: 'linux',
    goarch: 'amd64',
    cgo: true,
    tags: ['integration'],
  });
  expect(
    buildFor(
      '/p/d.go',
      '//go:build !linux && !windows && !darwin && !freebsd && !openbsd && !netbsd && !dragonfly && !solaris && !illumos && !aix && !android && !ios && !plan9 && !js && !wasip1 && !hurd && !zos\n\npackage p\n',
      linux,
    ),
  ).toBeUndefined();
  expect(builtUnder('/p/b_linux.go', 'package p\n', linux)).toBe(true);
});

test('cgo: the cgo tag, !cgo, and a file importing "C" (left out with cgo off, whatever its build line)', () => {
  const off = { ...linux, cgo: false };
  expect([satisfies('cgo', linux), satisfies('cgo', off), satisfies('!cgo', linux), satisfies('!cgo', off)]).toEqual([
    true,
    false,
    false,
    true,
  ]);
  const usesC = 'package p\n\n// #include <stdio.h>\nimport "C"\n';
  const inBlock = 'package p\n\nimport (\n\t"fmt"\n\t"C"\n)\n';
  expect([importsC(usesC), importsC(inBlock), importsC('package p\n\nimport "fmt"\n')]).toEqual([true, true, false]);
  expect([builtUnder('/p/b.go', usesC, linux), builtUnder('/p/b.go', usesC, off)]).toEqual([true, false]);
  // Each found a configuration: !cgo on this platform with cgo off; cgo on another platform, cgo turned on there.
  expect(buildFor('/p/c_nocgo.go', '//go:build !cgo\n\npackage p\n', linux)).toEqual({ ...off, tags: [] });
  expect(buildFor('/p/b_cgo.go', '//go:build cgo\n\npackage p\n', off)).toEqual({ ...linux, tags: [] });
  expect(buildFor('/p/w.go', '//go:build windows && cgo\n\npackage p\n', linux)).toEqual({
    goos: 'windows',
    goarch: 'amd64',
    cgo: true,
    tags: [],
  });
  const windows = { goos: 'windows', goarch: 'amd64', cgo: false, tags: ['integration'] };
  expect(buildLabel(windows)).toBe('GOOS=windows GOARCH=amd64 CGO_ENABLED=0 -tags=integration');
  expect(envFor({ PATH: '/bin', GOFLAGS: '-mod=mod -tags=x' }, windows)).toEqual({
    PATH: '/bin',
    GOOS: 'windows',
    GOARCH: 'amd64',
    CGO_ENABLED: '0',
    GOFLAGS: '-mod=mod -tags=integration',
  });
});

test('platforms that answer to another name: android is linux, ios darwin, illumos solaris; in names and build lines', () => {
  const on = (goos: string) => ({ goos, goarch: 'arm64', cgo: false, tags: [] });
  expect(builtUnder('/p/x_linux.go', 'package p\n', on('android'))).toBe(true);
  expect(builtUnder('/p/x_android.go', 'package p\n', on('linux'))).toBe(false);
  expect(builtUnder('/p/x_darwin.go', 'package p\n', on('ios'))).toBe(true);
  expect(builtUnder('/p/x_solaris.go', 'package p\n', on('illumos'))).toBe(true);
  expect([
    satisfies('linux', on('android')),
    satisfies('darwin', on('ios')),
    satisfies('solaris', on('illumos')),
  ]).toEqual([true, true, true]);
  expect([satisfies('unix', on('ios')), satisfies('unix', on('illumos')), satisfies('unix', on('js'))]).toEqual([
    true,
    true,
    false,
  ]);
});

test('file names as go/build reads them: from the first underscore, before the first dot, every known architecture', () => {
  expect(nameConstraint('/p/ü_windows.go')).toEqual({ goos: 'windows' });
  expect(nameConstraint('/p/x_mipsle.go')).toEqual({ goarch: 'mipsle' });
  expect(nameConstraint('/p/x_sparc64.go')).toEqual({ goarch: 'sparc64' });
  expect(nameConstraint('/p/x_linux.pb.go')).toEqual({ goos: 'linux' });
  expect(nameConstraint('/p/windows.go')).toEqual({});
  // Never tried, but known: a file for sparc64 is no file of this build.
  expect(builtUnder('/p/x_sparc64.go', 'package p\n', linux)).toBe(false);
});

test("a view's platform label is no part of the problem: [windows], [windows,amd64] dropped; any other bracket kept", () => {
  expect(withoutViewLabel('x declared and not used [windows]')).toBe('x declared and not used');
  expect(withoutViewLabel('unusedwrite: unused write [windows,amd64]')).toBe('unusedwrite: unused write');
  expect(withoutViewLabel('index out of range [5]')).toBe('index out of range [5]');
  expect(withoutViewLabel('cannot use x (variable of type []string) [fix]')).toBe(
    'cannot use x (variable of type []string) [fix]',
  );
  expect(withoutViewLabel('list[int] is not int')).toBe('list[int] is not int');
});
