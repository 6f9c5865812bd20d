/** Go's build constraints as go/build reads them: file names, //go:build expressions, a configuration that compiles a file. */
import { expect, test } from 'bun:test';
import { buildFor, builtUnder, nameConstraint, satisfies } from '../../src/engine/go-builds';

const linux = { goos: 'linux', goarch: 'amd64', tags: [] };

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
  expect(buildFor('/p/b_windows.go', 'package p\n', linux)).toEqual({ goos: 'windows', goarch: 'amd64', tags: [] });
  expect(buildFor('/p/c.go', '//go:build integration\n\npackage p\n', linux)).toEqual({
    goos: 'linux',
    goarch: 'amd64',
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
