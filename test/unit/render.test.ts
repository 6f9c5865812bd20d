import { describe, expect, test } from 'bun:test';
import type { HeldServer } from '../../src/common/messages';
import type { CallsResult } from '../../src/commands/calls/question';
import type { LocationsResult } from '../../src/commands/locations/question';
import type { SymbolsResult } from '../../src/commands/symbols/question';
import { distinctions, renderDaemonStatus } from '../../src/commands/daemon/render';
import { renderCalls } from '../../src/commands/calls/render';
import { locationsJson, renderLocations } from '../../src/commands/locations/render';
import { displayPath } from '../../src/common/paths';
import { renderOptions } from '../../src/render/style';
import { renderSymbols } from '../../src/commands/symbols/render';

const o = renderOptions('/p', false);

const result: LocationsResult = {
  target: { path: '/p/a.ts', line: 1, column: 2, symbol: 'x' },
  server: 'typescript',
  root: '/p',
  locations: [
    { path: '/p/src/a.ts', line: 3, column: 7, endLine: 3, endColumn: 8, preview: 'const x = 1;' },
    { path: '/usr/lib/x.d.ts', line: 10, column: 1, endLine: 10, endColumn: 2, preview: 'declare x' },
  ],
  total: 5,
  truncated: true,
};

describe('render', () => {
  test('paths are relative under the cwd, absolute elsewhere, URIs as they are', () => {
    expect(displayPath('/p/src/a.ts', '/p')).toBe('src/a.ts');
    expect(displayPath('/q/a.ts', '/p')).toBe('/q/a.ts');
    expect(displayPath('jdt://contents/x', '/p')).toBe('jdt://contents/x');
  });

  test('locations print as path:line:col: preview, a cut answer as its last line', () => {
    const r = renderLocations(result, o);
    expect(r.stdout).toBe('src/a.ts:3:7: const x = 1;\n/usr/lib/x.d.ts:10:1: declare x\n');
    expect(r.cut).toBe('2 of 5 shown: --limit 0 for all');
    expect(r.warning).toBeUndefined();
  });

  test('locations JSON has the contract fields', () => {
    expect(locationsJson(result, '/p')).toEqual({
      target: { path: 'a.ts', line: 1, column: 2, symbol: 'x' },
      server: 'typescript',
      root: '/p',
      locations: [
        { path: 'src/a.ts', line: 3, column: 7, endLine: 3, endColumn: 8, preview: 'const x = 1;' },
        { path: '/usr/lib/x.d.ts', line: 10, column: 1, endLine: 10, endColumn: 2, preview: 'declare x' },
      ],
      total: 5,
      truncated: true,
    });
  });

  test('no colour codes without a terminal', () => {
    expect(renderLocations(result, o).stdout).not.toContain('\u001b[');
    expect(renderLocations(result, renderOptions('/p', true)).stdout).toContain('\u001b[');
  });

  test('symbols as an indented tree after the location', () => {
    const symbols: SymbolsResult = {
      path: '/p/a.ts',
      server: 's',
      root: '/p',
      total: 2,
      truncated: false,
      symbols: [
        {
          name: 'A',
          kind: 'class',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 15,
          children: [
            {
              name: 'm',
              kind: 'method',
              detail: '(): void',
              line: 2,
              column: 3,
              endLine: 2,
              endColumn: 4,
              children: [],
            },
          ],
        },
      ],
    };
    expect(renderSymbols(symbols, o).stdout).toBe('a.ts:1:14: class A\na.ts:2:3:   method m (): void\n');
  });

  test('calls: target first, then arrows by depth', () => {
    const calls: CallsResult = {
      item: { name: 'f', kind: 'function', path: '/p/a.go', line: 5, column: 6 },
      direction: 'incoming',
      server: 'gopls',
      root: '/p',
      total: 2,
      truncated: false,
      calls: [
        {
          item: { name: 'g', kind: 'function', path: '/p/b.go', line: 9, column: 6 },
          ranges: [{ line: 10, column: 2, endLine: 10, endColumn: 3 }],
          calls: [
            { item: { name: 'main', kind: 'function', path: '/p/main.go', line: 3, column: 6 }, ranges: [], calls: [] },
          ],
        },
      ],
    };
    expect(renderCalls(calls, o).stdout).toBe(
      'a.go:5:6: function f\nb.go:9:6:   ← function g\nmain.go:3:6:     ← function main\n',
    );
  });
});

describe('daemon status: rows of one server and root say what differs', () => {
  const held = (binary: string, env: Record<string, string>): HeldServer => ({
    id: 'gopls',
    root: '/p',
    binary,
    env,
    pid: 1,
    uptimeSeconds: 1,
    memoryBytes: null,
    requests: 0,
    state: 'idle',
  });

  test('a different binary is named', () => {
    expect(distinctions([held('/a/gopls', { PATH: '/a' }), held('/b/gopls', { PATH: '/b' })])).toEqual([
      'binary /a/gopls',
      'binary /b/gopls',
    ]);
  });

  test('the same binary: the environment variables that differ, and only those', () => {
    const rows = [held('/a/gopls', { PATH: '/a', GOFLAGS: '' }), held('/a/gopls', { PATH: '/a', GOFLAGS: '-tags=x' })];
    expect(distinctions(rows)).toEqual(['GOFLAGS=(unset)', 'GOFLAGS=-tags=x']);
  });

  test('a server held once shows nothing extra, and the line carries the difference', () => {
    const servers = [
      held('/a/gopls', { PATH: '/a' }),
      held('/b/gopls', { PATH: '/b' }),
      { ...held('/a/gopls', { PATH: '/a' }), root: '/q' },
    ];
    const status = {
      pid: 9,
      build: 'b',
      socket: '/s',
      uptimeSeconds: 5,
      memoryBytes: 0,
      heapBytes: 0,
      broken: [],
      servers,
      serversMemoryBytes: 3 * 1_048_576,
      memoryLimitBytes: 1024 * 1_048_576,
    };
    expect(distinctions(status.servers)).toEqual(['binary /a/gopls', 'binary /b/gopls', '']);
    const out = renderDaemonStatus(status, o).stdout.split('\n');
    expect(out[1]).toBe('servers: 3 MB of the 1024 MB limit');
    expect(out[2]!.endsWith('/p  (binary /a/gopls)')).toBe(true);
    expect(out[4]!.endsWith('/q')).toBe(true);
  });
});

describe('changedLines: the lines an edit changes, as a person counts them', () => {
  const { changedLines } = require('../../src/render/diff') as typeof import('../../src/render/diff');
  test('a line replaced counts once; added and removed lines once each; CRLF as LF', () => {
    expect(changedLines('a\nb\nc\n', 'a\nB\nc\n')).toBe(1);
    expect(changedLines('a\nb\n', 'a\n\nb\n')).toBe(1);
    expect(changedLines('a\nb\nc\n', 'a\n')).toBe(2);
    expect(changedLines('a\r\n  b\r\nc\r\n', 'a\r\nb\r\nc\r\n')).toBe(1);
    expect(changedLines('same\n', 'same\n')).toBe(0);
  });
});

describe("the hook's cut: past 20 lines, the last names a command that lists them all, or none is cut", () => {
  const { hookOutput } = require('../../src/commands/hook/render') as typeof import('../../src/commands/hook/render');
  const o = renderOptions('/p', false);
  const broken = (i: number, file: string) => ({
    path: `/p/${file}`,
    line: i + 1,
    column: 2,
    endLine: i + 1,
    endColumn: 8,
    severity: 'error' as const,
    message: 'undefined: NoArgs',
    source: 'compiler',
    code: 'UndeclaredName',
    new: true,
  });
  const result = (listedByFiles: boolean) => ({
    kind: 'after' as const,
    compared: [{ path: '/p/args.go', with: 'before the edit' as const }],
    diagnostics: [
      ...Array.from({ length: 15 }, (_, i) => broken(i, 'args_test.go')),
      ...Array.from({ length: 10 }, (_, i) => broken(i, "it's here.go")),
    ],
    severity: 'warning' as const,
    listedByFiles,
    incomplete: [],
    withheld: [],
    unchecked: [],
    answered: [],
  });

  test('a command of the files they lie in, at the severity told, paths quoted for the shell', () => {
    const lines = (hookOutput('claude', result(true), o).stderr ?? '').split('\n');
    expect(lines.length).toBe(22);
    expect([lines[0], lines[20]]).toEqual([
      'this edit of args.go introduced 25 errors:',
      "it's here.go:5:2: error: undefined: NoArgs [compiler UndeclaredName]",
    ]);
    expect(lines.at(-1)).toBe("... and 5 more; all 25: lspq diag --severity warning args_test.go 'it'\\''s here.go'");
  });

  test('where that command would list old problems too, every line is told', () => {
    const lines = (hookOutput('claude', result(false), o).stderr ?? '').split('\n');
    expect(lines.length).toBe(26);
    expect(lines.at(-1)).toBe("it's here.go:10:2: error: undefined: NoArgs [compiler UndeclaredName]");
  });
});
