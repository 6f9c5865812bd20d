/**
 * Bad input and missing servers: one line that says what to do, the right
 * exit code, never a server's stack trace. Each PATH is built for the test
 * (exactPath), so the answers do not depend on what the machine has.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyFixture, exactPath, FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const cleanup: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function path(commands: string[]): string {
  const dir = exactPath(commands);
  cleanup.push(dir);
  return dir;
}

const go = join(FIXTURES, 'go-shapes');
const py = join(FIXTURES, 'py-shapes');

describe('servers not installed, or unable to answer', () => {
  test('not installed: the install command, with no server anywhere on PATH', async () => {
    const r = await lspq.run(['def', 'main.go:7:TotalArea', '--no-daemon'], { cwd: go, env: { PATH: path(['git']) } });
    expect({ stderr: r.stderr, exit: r.exit }).toEqual({
      stderr: `lspq: gopls is not installed (needed for ${go}/main.go); install it: go install golang.org/x/tools/gopls@latest\n`,
      exit: 3,
    });
  });

  test('impls in Python with pyright and ruff: which known server may answer, with its install command', async () => {
    const r = await lspq.run(['impls', 'shapes/shape.py:13:area', '--no-daemon'], {
      cwd: py,
      env: { PATH: path(['node', 'pyright-langserver', 'ruff']) },
    });
    expect({ stderr: r.stderr, exit: r.exit }).toEqual({
      stderr: `lspq: pyright, ruff cannot answer implementations for ${py}/shapes/shape.py; not installed, and may: basedpyright (pip install basedpyright) ('lspq servers --for FILE' lists what each can answer)\n`,
      exit: 3,
    });
  });

  test('a .lsp.json server whose command is missing: the command, the server and the file', async () => {
    const dir = copyFixture('go-shapes');
    cleanup.push(dir);
    writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ gopls: { command: 'my-gopls' } }));
    const r = await lspq.run(['def', 'main.go:7:TotalArea', '--no-daemon'], { cwd: dir });
    expect({ stderr: r.stderr, exit: r.exit }).toEqual({
      stderr: `lspq: 'my-gopls' (server 'gopls' in ${dir}/.lsp.json) is not installed or not on PATH (needed for ${dir}/main.go); install it or fix "command" there\n`,
      exit: 3,
    });
  });
});

describe('bad input', () => {
  test('--server that does not handle the file is refused, naming the servers that do', async () => {
    const r = await lspq.run(['def', 'main.go:7:TotalArea', '--server', 'clangd'], { cwd: go });
    expect({ stdout: r.stdout, stderr: r.stderr, exit: r.exit }).toEqual({
      stdout: '',
      stderr: `lspq: clangd does not handle ${go}/main.go (the servers for it: gopls); drop --server or name one of them\n`,
      exit: 2,
    });
  });

  test('a file of NUL bytes is not text: exit 2 before any server starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lspq-nul-'));
    cleanup.push(dir);
    writeFileSync(join(dir, 'x.go'), Buffer.alloc(64));
    const r = await lspq.run(['def', 'x.go:1:1'], { cwd: dir });
    expect({ stderr: r.stderr, exit: r.exit }).toEqual({
      stderr: `lspq: ${dir}/x.go is not a text file (it holds NUL bytes); name a source file\n`,
      exit: 2,
    });
  });

  test('lspq with no arguments: the usage on stderr, nothing on stdout, exit 2', async () => {
    const r = await lspq.run([]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toStartWith('lspq ');
    expect(r.stderr).toContain('Usage: lspq COMMAND');
    expect(r.exit).toBe(2);
    const help = await lspq.run(['--help']);
    expect({ stderr: help.stderr, exit: help.exit }).toEqual({ stderr: '', exit: 0 });
    expect(help.stdout).toContain('Usage: lspq COMMAND');
  });

  test('a minified line: the preview is a window around the location, not the whole line', async () => {
    const dir = copyFixture('go-shapes');
    cleanup.push(dir);
    const filler = Array.from({ length: 2_000 }, (_, i) => `v${i} = ${i}`).join('; ');
    writeFileSync(
      join(dir, 'long.go'),
      `package main\n\nfunc useTotal() { var ${filler}; _ = TotalArea(nil, "cm") }\n`,
    );
    const r = await lspq.json<{ locations: { path: string; line: number; preview: string }[] }>(
      ['refs', 'geometry.go:17:TotalArea'],
      { cwd: dir },
    );
    const long = r.locations.find((l) => l.path === 'long.go')!;
    expect(long.line).toBe(3);
    expect(long.preview.startsWith('…')).toBe(true);
    expect(long.preview).toContain('_ = TotalArea(nil, "cm") }');
    expect([...long.preview].length).toBeLessThanOrEqual(162);
  });
});

describe('workspace questions', () => {
  test('symbols -w in a folder of Python files without a marker asks only the Python servers, and no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lspq-py-'));
    cleanup.push(dir);
    writeFileSync(join(dir, 'table.py'), 'class Table:\n    pass\n');
    const r = await lspq.run(['symbols', '-w', 'Table', '--root', '.'], { cwd: dir });
    expect({ stdout: r.stdout, exit: r.exit }).toEqual({ stdout: 'table.py:1:7: class Table\n', exit: 0 });
    const status = await lspq.json<{ servers: { id: string; root: string }[] }>(['daemon', 'status']);
    expect(status.servers.filter((s) => s.root === dir).map((s) => s.id)).toEqual(['pyright']);
  });

  test('--symbol takes qualifiers as code writes them: Go package names, Python module names', async () => {
    expect((await lspq.run(['def', '--symbol', 'fmt.Sprintf'], { cwd: go })).stdout).toEndWith(
      '/src/fmt/print.go:237:6: func Sprintf(format string, a ...any) string {\n',
    );
    expect((await lspq.run(['def', '--symbol', 'main.TotalArea'], { cwd: go })).stdout).toBe(
      'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
    );
    expect((await lspq.run(['def', '--symbol', 'geometry.total_area'], { cwd: py })).stdout).toBe(
      'shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:\n',
    );
    expect((await lspq.run(['def', '--symbol', 'shapes.geometry.total_area'], { cwd: py })).stdout).toBe(
      'shapes/geometry.py:15:5: def total_area(shapes: list[Shape], unit: Unit) -> str:\n',
    );
  });

  test('an ambiguous --symbol suggests, for each candidate, a qualifier that works', async () => {
    const r = await lspq.run(['def', '--symbol', 'Area'], { cwd: go });
    expect({ stderr: r.stderr, exit: r.exit }).toEqual({
      stderr:
        "lspq: 'Area' names 3 symbols; pick one: --symbol Shape.Area (method, shape.go:5:2), --symbol Circle.Area (method, circle.go:9:17), --symbol Square.Area (method, square.go:8:17)\n",
      exit: 2,
    });
    for (const q of ['Shape.Area', 'Circle.Area', 'Square.Area'])
      expect((await lspq.run(['def', '--symbol', q], { cwd: go })).exit).toBe(0);
  });
});

describe('.lsp.json settings reach a real server', () => {
  test('pyright: a diagnosticSeverityOverrides setting turns a warning off; edited or removed, the warm daemon follows', async () => {
    const dir = copyFixture('py-diag');
    cleanup.push(dir);
    const diag = async () => (await lspq.run(['diag', 'broken.py', '--server', 'pyright'], { cwd: dir })).stdout;
    const unused = 'broken.py:8:1: warning: Expression value is unused [Pyright reportUnusedExpression]\n';
    expect(await diag()).toContain(unused);
    const settings = { python: { analysis: { diagnosticSeverityOverrides: { reportUnusedExpression: 'none' } } } };
    writeFileSync(join(dir, '.lsp.json'), JSON.stringify({ pyright: { settings } }));
    expect(await diag()).not.toContain(unused);
    expect(await diag()).not.toContain(unused);
    rmSync(join(dir, '.lsp.json'));
    expect(await diag()).toContain(unused);
  });
});
