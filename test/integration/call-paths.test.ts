/**
 * calls A --to B: the shortest call chains, one call site per line, on real
 * servers; with none, what stopped the search (the depth, or an interface
 * or trait method, or a function passed as a value) on gorilla/mux, anyhow
 * and a TypeScript project. And calls' items of the kind they are: a
 * method, where gopls and rust-analyzer call it a function.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Lspq, prepareCFixture, scratchDir } from '../helpers/lspq';
import { anyhowAt, muxAt } from '../helpers/published';

const lspq = new Lspq();
prepareCFixture();
const base = scratchDir('call-paths');
const mux = muxAt(join(base, 'mux'));
const anyhow = anyhowAt(join(base, 'anyhow'));
const nested = join(base, 'nested');
mkdirSync(nested);
writeFileSync(join(nested, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, "noEmit": true } }\n');
writeFileSync(
  join(nested, 'a.ts'),
  [
    'export function target(): number {',
    '  return 1;',
    '}',
    '',
    'export function viaNested(): number {',
    '  function inner(): number {',
    '    return target();',
    '  }',
    '  return [1].map(inner)[0];',
    '}',
    '',
  ].join('\n'),
);
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const at = (fixture: string) => ({ cwd: join(FIXTURES, fixture) });
const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

describe('calls --to', () => {
  test('Go: main reaches the interface method Shape.Area through four calls (a --symbol name as --to)', async () => {
    expect(await lspq.run(['calls', 'main.go:5:main', '--to', 'Shape.Area'], at('go-shapes'))).toEqual({
      exit: 0,
      stdout: lines(
        'main.go:7:32: main -> TotalArea',
        'geometry.go:18:31: TotalArea -> sumAreas',
        'geometry.go:12:10: sumAreas -> areaOf',
        'geometry.go:6:15: areaOf -> Area',
      ),
      stderr: '',
    });
  });

  test('TypeScript and Python: a target as --to; asked again, the same', async () => {
    const ts = lines('src/geometry.ts:14:13: totalArea -> sumAreas', 'src/geometry.ts:9:38: sumAreas -> areaOf');
    for (let i = 0; i < 2; i++) {
      expect(
        await lspq.run(['calls', 'src/geometry.ts:13:totalArea', '--to', 'src/geometry.ts:3:areaOf'], at('ts-shapes')),
      ).toEqual({ exit: 0, stdout: ts, stderr: '' });
    }
    expect(await lspq.run(['calls', 'shapes/geometry.py:15:total_area', '--to', 'area_of'], at('py-shapes'))).toEqual({
      exit: 0,
      stdout: lines(
        'shapes/geometry.py:16:15: total_area -> sum_areas',
        'shapes/geometry.py:11:18: sum_areas -> area_of',
      ),
      stderr: '',
    });
  });

  test('JSON: each hop its caller, callee and call sites', async () => {
    const r = await lspq.json<{
      chains: { caller: { name: string }; callee: { name: string }; ranges: { line: number }[] }[][];
      total: number;
      truncated: boolean;
    }>(['calls', 'main.go:5:main', '--to', 'geometry.go:9:sumAreas'], at('go-shapes'));
    expect(r.chains.map((c) => c.map((h) => `${h.caller.name}->${h.callee.name}@${h.ranges[0]!.line}`))).toEqual([
      ['main->TotalArea@7', 'TotalArea->sumAreas@18'],
    ]);
    expect([r.total, r.truncated]).toEqual([1, false]);
  });

  test('a server without outgoing calls (clangd 14) says so: exit 3', async () => {
    expect(await lspq.run(['calls', 'main.c:4:main', '--to', 'area_of'], at('c-shapes'))).toEqual({
      exit: 3,
      stdout: '',
      stderr: 'lspq: clangd does not support callHierarchy/outgoingCalls; try another server with --server\n',
    });
  });

  test('no chain: exit 1 and a note saying why; a chain deeper than --depth is not found, and --depth named', async () => {
    expect(await lspq.run(['calls', 'geometry.go:5:areaOf', '--to', 'TotalArea'], at('go-shapes'))).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        'lspq: no call chain from areaOf to TotalArea: every call from areaOf was followed to its end (2 functions reached), so a larger --depth finds none; it went through Area (shape.go:5:2, implemented at circle.go:9:17, square.go:8:17), a trait or interface method whose implementations no call leads into: ask from an implementation\n',
    });
    expect(await lspq.run(['calls', 'main.go:5:main', '--to', 'Shape.Area', '--depth', '3'], at('go-shapes'))).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        'lspq: no call chain from main to Area within --depth 3, past which calls remain to follow; raise --depth\n',
    });
  });

  test('anyhow (rust-analyzer): a chain through a trait method is not followed, and --depth 10 is not what stops it', async () => {
    expect(
      await lspq.run(
        // Cold, rust-analyzer loads the crate and runs its build script first: 2-3 minutes on a loaded machine.
        [
          'calls',
          'src/context.rs:46:context',
          '--to',
          'src/error.rs:245:construct_from_context',
          '--depth',
          '10',
          '--timeout',
          '360',
        ],
        { cwd: anyhow },
      ),
    ).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        'lspq: no call chain from context to construct_from_context: every call from context was followed to its end (4 functions reached), so a larger --depth finds none; it went through ext_context (src/context.rs:13:12, implemented at src/context.rs:23:12, src/context.rs:33:12), a trait or interface method whose implementations no call leads into: ask from an implementation\n',
    });
    // Asked from the implementation it names, the chain is found.
    expect(
      await lspq.run(['calls', 'src/context.rs:23:12', '--to', 'src/error.rs:245:construct_from_context'], {
        cwd: anyhow,
      }),
    ).toEqual({ exit: 0, stdout: 'src/context.rs:28:13: ext_context -> construct_from_context\n', stderr: '' });
  }, 400_000);

  test('gorilla/mux (gopls): the interface method on the way is named with its implementations, beside the depth', async () => {
    expect(
      await lspq.run(['calls', 'route.go:41:Match', '--to', 'mux.go:547:matchMapWithString'], { cwd: mux }),
    ).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        'lspq: no call chain from Match to matchMapWithString within --depth 6: it went through Match (route.go:172:2, implemented at mux.go:138:18, regexp.go:174:23, route.go:41:17 and 5 more), a trait or interface method whose implementations no call leads into: ask from an implementation; calls also remain past --depth 6\n',
    });
  });

  test('TypeScript: a nested function passed as a value, not called, is named: no call leads into it', async () => {
    expect(await lspq.run(['calls', 'a.ts:5:viaNested', '--to', 'a.ts:1:target'], { cwd: nested })).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        'lspq: no call chain from viaNested to target: every call from viaNested was followed to its end (2 functions reached), so a larger --depth finds none; no call reaches inner (a.ts:6:12, declared in viaNested), passed as a value rather than called: ask from it\n',
    });
    expect(await lspq.run(['calls', 'a.ts:6:inner', '--to', 'a.ts:1:target'], { cwd: nested })).toEqual({
      exit: 0,
      stdout: 'a.ts:7:12: inner -> target\n',
      stderr: '',
    });
  });
});

describe('calls: a method is a method, where gopls and rust-analyzer call every item a function', () => {
  test('gorilla/mux: Router.Match and its caller ServeHTTP; JSON says method too', async () => {
    const r = await lspq.run(['calls', 'mux.go:138:Match'], { cwd: mux });
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      'mux.go:138:18: method Match',
      'mux.go:175:18:   ← method ServeHTTP',
      'mux_test.go:2004:6:   ← function TestSubrouterHeader',
    ]);
    const json = await lspq.json<{ item: { kind: string }; calls: { item: { name: string; kind: string } }[] }>(
      ['calls', 'mux.go:138:Match'],
      { cwd: mux },
    );
    expect([json.item.kind, json.calls[0]?.item]).toEqual([
      'method',
      expect.objectContaining({ name: 'ServeHTTP', kind: 'method' }),
    ]);
  });

  test('anyhow: a method of an impl block, and the test functions calling it', async () => {
    expect(await lspq.run(['calls', 'src/error.rs:500:root_cause', '--timeout', '170'], { cwd: anyhow })).toEqual({
      exit: 0,
      stdout:
        'src/error.rs:500:12: method root_cause  (in Error)\ntests/test_context.rs:168:4:   ← function test_root_cause\ntests/test_ensure.rs:338:4:   ← function test_path\n',
      stderr: '',
    });
  });

  test('anyhow: a method of an impl for a tuple is in the whole type, comma and all', async () => {
    expect(
      await lspq.run(['calls', 'src/ensure.rs:30:__dispatch_ensure', '--timeout', '170'], { cwd: anyhow }),
    ).toEqual({
      exit: 1,
      stdout: 'src/ensure.rs:30:8: method __dispatch_ensure  (in &(A, B))\n',
      stderr: 'lspq: no callers of __dispatch_ensure (src/ensure.rs:30:8)\n',
    });
    const json = await lspq.json<{ item: { in?: { name: string; kind: string } } }>(
      ['calls', 'src/ensure.rs:19:__dispatch_ensure'],
      { cwd: anyhow },
    );
    expect(json.item.in).toEqual({ name: '(A, B)', kind: 'object' });
  });

  test('the chain of calls --to names its hops with their kinds (JSON)', async () => {
    const r = await lspq.json<{ chains: { caller: { kind: string }; callee: { name: string; kind: string } }[][] }>(
      ['calls', 'mux.go:175:ServeHTTP', '--to', 'mux.go:138:Match'],
      { cwd: mux },
    );
    expect(r.chains.map((c) => c.map((h) => [h.caller.kind, h.callee.name, h.callee.kind]))).toEqual([
      [['method', 'Match', 'method']],
    ]);
  });
});
