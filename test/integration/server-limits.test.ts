/**
 * What a server leaves out is said, never answered whole with exit 0:
 * gopls stops workspace symbols at 100 (reported truncated, with a note
 * naming the cap, however large --limit is), and a call-path search whose
 * way passes functions gopls cannot expand (the standard library's
 * strings.Join reaches unsafe.SliceData, which gopls answers 'no symbol here') ends with "no chain" (exit 1), not with the
 * server's error for them.
 */
import { afterAll, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('limits');
const cases = Array.from({ length: 136 }, (_, i) => `func TestCase${String(i + 1).padStart(3, '0')}() {}`);
writeFileSync(join(dir, 'go.mod'), 'module example.com/limits\n\ngo 1.22\n');
writeFileSync(
  join(dir, 'main.go'),
  [
    'package main',
    '',
    'import (',
    '\t"fmt"',
    '\t"strings"',
    ')',
    '',
    'func main() { a(); c() }',
    '',
    'func a() { fmt.Println(len("x")) }',
    '',
    'func b() {}',
    '',
    'func c() string { return strings.Join(nil, ",") }',
    ...cases,
    '',
  ].join('\n'),
);
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

test('symbols -w past gopls’s cap of 100: truncated, and said so, asked twice', async () => {
  for (let i = 0; i < 2; i++) {
    const json = await lspq.json<{ total: number; truncated: boolean; symbols: { name: string; line: number }[] }>(
      ['symbols', '-w', 'TestCase', '--limit', '1000'],
      { cwd: dir },
    );
    expect([json.total, json.truncated, json.symbols.length]).toEqual([100, true, 100]);
    const r = await lspq.run(['symbols', '-w', 'TestCase', '--limit', '1000'], { cwd: dir });
    const note =
      "cut by the server: gopls answers at most 100 symbols, so more may match 'TestCase' than the 100 shown; narrow the query";
    // Said where the answer is read, as a cut at --limit is: stdout's last line, and the warning.
    expect([r.exit, r.stdout.trimEnd().split('\n').at(-1), r.stderr]).toEqual([0, note, `lspq: warning: ${note}\n`]);
  }
});

test('under the cap: whole, not truncated', async () => {
  const json = await lspq.json<{ total: number; truncated: boolean }>(
    ['symbols', '-w', 'TestCase13', '--limit', '1000'],
    {
      cwd: dir,
    },
  );
  // gopls matches fuzzily: 013, 103, 113, 123 and 130-136.
  expect([json.total, json.truncated]).toEqual([11, false]);
});

test('calls --to with no path through functions gopls cannot expand: no chain (exit 1)', async () => {
  for (let i = 0; i < 2; i++) {
    const r = await lspq.run(['calls', 'main.go:8:main', '--to', 'main.go:12:b', '--depth', '6'], { cwd: dir });
    // What stopped it: an interface method of the standard library (its places are GOROOT's, this machine's).
    expect({ stdout: r.stdout, exit: r.exit }).toEqual({ stdout: '', exit: 1 });
    expect(r.stderr).toMatch(
      /^lspq: no call chain from main to b within --depth 6: it went through Write \(\S+\/io\/io\.go:100:2, implemented at .*\), a trait or interface method whose implementations no call leads into: ask from an implementation; calls also remain past --depth 6\n$/,
    );
  }
  // The way passed a function gopls could not expand, and the search went on without it.
  expect((await lspq.run(['daemon', 'logs'])).stdout).toContain('a dead end of the search');
});
