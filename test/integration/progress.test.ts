/**
 * Progress is for a person at a terminal: while a server loads its project
 * for more than a second, stderr says so with the server's own progress;
 * with stderr a pipe (a script, an agent) only the answer is printed. A
 * cold rust-analyzer loads for seconds (cargo metadata, then indexing the
 * standard library), through the daemon and with --no-daemon alike.
 * `script` gives the command a terminal.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { fakeProject, FIXTURES, Lspq, lspqArgv } from '../helpers/lspq';

const rust = join(FIXTURES, 'rust-shapes');
const question = ['def', 'src/main.rs:13:total_area', '--timeout', '120'];
const answer = 'src/geometry.rs:15:8: pub fn total_area(shapes: &[Box<dyn Shape>], unit: Unit) -> String {';
const loading = `rust-analyzer: loading the project at ${rust}`;

const ERASE = /\u001b\[\d+F\u001b\[0J/;

/**
 * The command with a terminal for stdout and stderr (merged, as a terminal
 * shows them): the text with escape codes taken out, and whether the
 * progress lines were erased (cursor up over them, clear to the end).
 */
async function onTerminal(
  lspq: Lspq,
  args: string[],
  cwd = rust,
): Promise<{ text: string; exit: number; erased: boolean }> {
  const command = [...lspqArgv(), ...args].map((w) => `'${w}'`).join(' ');
  const proc = Bun.spawn(['script', '-qec', command, '/dev/null'], {
    cwd,
    env: lspq.env({ NO_COLOR: '1' }),
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [raw, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { text: raw.replace(/\r/g, '').replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''), exit, erased: ERASE.test(raw) };
}

describe('progress while a project loads', () => {
  const lspq = new Lspq();
  afterAll(async () => expect(await lspq.stop()).toEqual([]));

  test('on a terminal: loading notes with the server own progress, erased when the answer comes', async () => {
    const r = await onTerminal(lspq, question);
    expect(r.exit).toBe(0);
    expect(r.erased).toBe(true);
    const lines = r.text.split('\n').filter(Boolean);
    expect(lines.some((l) => l.includes(loading))).toBe(true);
    expect(lines.at(-1)).toBe(answer);
  });

  test('warm, nothing to load: no note', async () => {
    const r = await onTerminal(lspq, question);
    expect(r.text.split('\n').filter(Boolean)).toEqual([answer]);
    expect(r.erased).toBe(false);
  });

  test('--json on a terminal: no progress, cold as well, only the document', async () => {
    await lspq.run(['daemon', 'stop']);
    const r = await onTerminal(lspq, [...question, '--json']);
    expect(r.exit).toBe(0);
    expect(r.text.includes('loading')).toBe(false);
    expect(JSON.parse(r.text).locations[0].path).toBe('src/geometry.rs');
  });

  test('--no-daemon on a terminal: the same notes from the command itself, erased too', async () => {
    const r = await onTerminal(lspq, [...question, '--no-daemon']);
    expect(r.exit).toBe(0);
    expect(r.erased).toBe(true);
    expect(r.text.includes(loading)).toBe(true);
    expect(r.text.split('\n').filter(Boolean).at(-1)).toBe(answer);
  });

  test('a cut answer: consola warns a person at a terminal, a plain line tells a pipe', async () => {
    const args = ['impls', 'src/shape.rs:3:area', '--limit', '1'];
    const note = '1 of 2 shown: --limit 0 for all';
    const terminal = await onTerminal(lspq, args);
    expect(terminal.text.split('\n').filter(Boolean)).toEqual([
      'src/circle.rs:8:8: fn area(&self) -> f64 {',
      note,
      ` WARN  ${note}`,
    ]);
    const piped = await lspq.run(args, { cwd: rust });
    expect([piped.stdout, piped.stderr]).toEqual([
      `src/circle.rs:8:8: fn area(&self) -> f64 {\n${note}\n`,
      `lspq: warning: ${note}\n`,
    ]);
  });

  test('--no-daemon with LSPQ_DEBUG=1: the daemon log lines on stderr, through consola', async () => {
    const go = join(FIXTURES, 'go-shapes');
    const r = await lspq.run(['def', 'main.go:7:TotalArea', '--no-daemon'], { cwd: go, env: { LSPQ_DEBUG: '1' } });
    expect(r.stdout).toBe('geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n');
    expect(r.stderr.split('\n')[0]).toMatch(/^\[debug\] starting gopls \(\/.+\/gopls\) for .+\/go-shapes$/);
  });

  test('stderr a pipe: only the answer, cold as well', async () => {
    const r = await lspq.run([...question, '--no-daemon'], { cwd: rust });
    expect(r).toEqual({ stdout: `${answer}\n`, stderr: '', exit: 0 });
  });
});

describe('progress while any question is slow', () => {
  const lspq = new Lspq();
  const dir = fakeProject('slow', 'hangs-on-definition');
  afterAll(async () => {
    expect(await lspq.stop()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  test('on a terminal: what lspq waits for, each second, erased before the answer; nothing through a pipe', async () => {
    // Long enough for the first note after a cold start; how many more come depends on the machine.
    const args = ['def', 'a.fake:1:hello', '--timeout', '4'];
    const r = await onTerminal(lspq, args, dir);
    expect(r.exit).toBe(3);
    expect(r.erased).toBe(true);
    expect(r.text).toContain('fake: waiting for textDocument/definition (1s)');
    expect(r.text.split('\n').filter(Boolean).at(-1)).toBe(
      "lspq: fake did not answer textDocument/definition within 4s; retry with a larger --timeout, or see 'lspq daemon logs'",
    );
    const piped = await lspq.run(args, { cwd: dir });
    expect(piped).toEqual({
      exit: 3,
      stdout: '',
      stderr:
        "lspq: fake did not answer textDocument/definition within 4s; retry with a larger --timeout, or see 'lspq daemon logs'\n",
    });
  });
});
