/** calls A --to B: the shortest call chains, one call site per line, on real servers. */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq, prepareCFixture } from '../helpers/lspq';

const lspq = new Lspq();
prepareCFixture();
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
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

  test('no chain: exit 1 and a note; a chain deeper than --depth is not found', async () => {
    expect(await lspq.run(['calls', 'geometry.go:5:areaOf', '--to', 'TotalArea'], at('go-shapes'))).toEqual({
      exit: 1,
      stdout: '',
      stderr: 'lspq: no call chain from areaOf to TotalArea within the depth searched; raise --depth\n',
    });
    expect(
      (await lspq.run(['calls', 'main.go:5:main', '--to', 'Shape.Area', '--depth', '3'], at('go-shapes'))).exit,
    ).toBe(1);
  });
});
