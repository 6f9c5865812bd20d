import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRoot } from '../../src/lsp/servers/locate';
import { BUILTIN_SERVERS } from '../../src/lsp/servers/registry';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-roots-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function files(...paths: string[]): void {
  for (const p of paths) {
    mkdirSync(join(base, p, '..'), { recursive: true });
    writeFileSync(join(base, p), '');
  }
}

const spec = (id: string) => BUILTIN_SERVERS.find((s) => s.id === id)!;

describe('Python roots without a marker: the folder above the top-most package', () => {
  files(
    'site/rich/__init__.py',
    'site/rich/table.py',
    'site/rich/_sub/__init__.py',
    'site/rich/_sub/deep.py',
    'loose/script.py',
  );

  test.each(['pyright', 'basedpyright', 'pylsp', 'ruff'])(
    '%s: a module of the package, and one in a sub-package',
    (id) => {
      expect(findRoot(spec(id), join(base, 'site/rich/table.py'))).toBe(join(base, 'site'));
      expect(findRoot(spec(id), join(base, 'site/rich/_sub/deep.py'))).toBe(join(base, 'site'));
    },
  );

  test('a file in no package keeps its folder', () => {
    expect(findRoot(spec('pyright'), join(base, 'loose/script.py'))).toBe(join(base, 'loose'));
  });

  test('a marker wins over the package rule', () => {
    files('proj/pyproject.toml', 'proj/src/pkg/__init__.py', 'proj/src/pkg/m.py');
    expect(findRoot(spec('pyright'), join(base, 'proj/src/pkg/m.py'))).toBe(join(base, 'proj'));
  });

  test('other languages do not follow it', () => {
    files('go/x/__init__.py', 'go/x/a.go');
    expect(findRoot(spec('gopls'), join(base, 'go/x/a.go'))).toBe(join(base, 'go/x'));
  });
});
